import 'server-only';
import { graphql } from '../transport';
import type { Key, KeyKind, Supervisor, SupervisorRole, Token } from './types';

const keyFields = `id kind name displayPrefix createdAt lastUsedAt revokedAt`;

export async function listKeys(token: string): Promise<Key[]> {
  return (await graphql<{ keys: Key[] }>(token, `query ConsoleKeys { keys { ${keyFields} } }`)).keys;
}

export async function createKey(token: string, kind: KeyKind, name: string): Promise<{ key: Key; secret: string }> {
  const data = await graphql<{ createKey: { key: Key; secret: string } }>(
    token,
    `mutation ConsoleCreateKey($kind: KeyKind!, $name: String!) { createKey(kind: $kind, name: $name) { secret key { ${keyFields} } } }`,
    { kind, name },
  );
  return data.createKey;
}

export async function revokeKey(token: string, id: string): Promise<void> {
  await graphql(token, `mutation ConsoleRevokeKey($id: ID!) { revokeKey(id: $id) { id } }`, { id });
}

export async function listSupervisors(token: string): Promise<{ supervisors: Supervisor[]; tokens: Token[] }> {
  return graphql<{ supervisors: Supervisor[]; tokens: Token[] }>(
    token,
    `query ConsoleSupervisors {
      supervisors { id username role createdAt }
      tokens { id name username displayPrefix createdAt lastUsedAt revokedAt }
    }`,
  );
}

export async function createSupervisor(token: string, username: string, role: SupervisorRole) {
  const data = await graphql<{ createSupervisor: { supervisor: Supervisor; password: string | null } }>(
    token,
    `mutation ConsoleCreateSupervisor($username: String!, $role: SupervisorRole!) {
      createSupervisor(username: $username, role: $role) { password supervisor { id username role createdAt } }
    }`,
    { username, role },
  );
  return data.createSupervisor;
}

export async function createToken(token: string, username: string, name: string) {
  const data = await graphql<{ createToken: { id: string; token: string } }>(
    token,
    `mutation ConsoleCreateToken($username: String!, $name: String!) { createToken(username: $username, name: $name) { id token } }`,
    { username, name },
  );
  return data.createToken;
}

export async function revokeToken(token: string, id: string): Promise<void> {
  await graphql(token, `mutation ConsoleRevokeToken($id: ID!) { revokeToken(id: $id) }`, { id });
}
