import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type { Key, KeyKind, Supervisor, SupervisorRole, Token } from './types';

export async function listKeys(token: string): Promise<Key[]> {
  return (await graphql<{ keys: Key[] }>(token, documents.keys)).keys;
}

export async function createKey(token: string, kind: KeyKind, name: string): Promise<{ key: Key; secret: string }> {
  return (await graphql<{ createKey: { key: Key; secret: string } }>(token, documents.createKey, { kind, name })).createKey;
}

export async function revokeKey(token: string, id: string): Promise<void> {
  await graphql(token, documents.revokeKey, { id });
}

export function listSupervisors(token: string): Promise<{ supervisors: Supervisor[]; tokens: Token[] }> {
  return graphql<{ supervisors: Supervisor[]; tokens: Token[] }>(token, documents.supervisors);
}

export async function createSupervisor(token: string, username: string, role: SupervisorRole) {
  type Created = { createSupervisor: { supervisor: Supervisor; password: string | null } };
  return (await graphql<Created>(token, documents.createSupervisor, { username, role })).createSupervisor;
}

export async function createToken(token: string, username: string, name: string) {
  return (await graphql<{ createToken: { id: string; token: string } }>(token, documents.createToken, { username, name })).createToken;
}

export async function revokeToken(token: string, id: string): Promise<void> {
  await graphql(token, documents.revokeToken, { id });
}
