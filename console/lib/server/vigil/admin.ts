import 'server-only';
import { graphql } from '../transport';
import { documents } from './documents';
import type { ConsoleRotateKeyMutation, ConsoleRotateTokenMutation, ConsoleSecurityTokensQuery, ConsoleSupervisorsQuery } from './generated';
import type { Key, KeyKind, SecurityToken, Supervisor, SupervisorRole } from './types';

export async function listKeys(token: string): Promise<Key[]> {
  return (await graphql<{ keys: Key[] }>(token, documents.keys)).keys;
}

/** `expiresInDays` null or 0: the key never expires. */
export async function createKey(token: string, kind: KeyKind, name: string, expiresInDays: number | null = null): Promise<{ key: Key; secret: string }> {
  return (await graphql<{ createKey: { key: Key; secret: string } }>(token, documents.createKey, { kind, name, expiresInDays })).createKey;
}

/** `overlapHours` null: the server's default (VIGIL_KEY_ROTATION_OVERLAP_HOURS). */
export async function rotateKey(token: string, id: string, overlapHours: number | null): Promise<ConsoleRotateKeyMutation['rotateKey']> {
  return (await graphql<ConsoleRotateKeyMutation>(token, documents.rotateKey, { id, overlapHours })).rotateKey;
}

export async function listSecurityTokens(token: string): Promise<SecurityToken[]> {
  return (await graphql<ConsoleSecurityTokensQuery>(token, documents.securityTokens)).tokens;
}

export async function rotateToken(token: string, id: string, overlapHours: number | null): Promise<ConsoleRotateTokenMutation['rotateToken']> {
  return (await graphql<ConsoleRotateTokenMutation>(token, documents.rotateToken, { id, overlapHours })).rotateToken;
}

export async function revokeKey(token: string, id: string): Promise<void> {
  await graphql(token, documents.revokeKey, { id });
}

export type SupervisorsPage = ConsoleSupervisorsQuery;

export function listSupervisors(token: string): Promise<SupervisorsPage> {
  return graphql<SupervisorsPage>(token, documents.supervisors);
}

export async function createSupervisor(token: string, username: string, role: SupervisorRole) {
  type Created = { createSupervisor: { supervisor: Supervisor; password: string | null } };
  return (await graphql<Created>(token, documents.createSupervisor, { username, role })).createSupervisor;
}

/** `expiresInDays` null: the server's default (VIGIL_API_TOKEN_DEFAULT_TTL_DAYS); 0: never. */
export async function createToken(token: string, username: string, name: string, expiresInDays: number | null = null) {
  type Created = { createToken: { id: string; token: string; expiresAt: string | null } };
  return (await graphql<Created>(token, documents.createToken, { username, name, expiresInDays })).createToken;
}

type AccountMutation = 'disableSupervisor' | 'enableSupervisor' | 'deleteSupervisor';

/** Disable, enable or delete an account by username. */
export async function changeAccount(token: string, mutation: AccountMutation, username: string): Promise<Supervisor> {
  return (await graphql<Record<AccountMutation, Supervisor>>(token, documents[mutation], { username }))[mutation];
}

export async function resetPassword(token: string, username: string): Promise<{ password: string; sessionsRevoked: number }> {
  type Reset = { resetSupervisorPassword: { password: string; sessionsRevoked: number } };
  return (await graphql<Reset>(token, documents.resetSupervisorPassword, { username })).resetSupervisorPassword;
}

export async function setRole(token: string, username: string, role: SupervisorRole): Promise<Supervisor> {
  return (await graphql<{ setSupervisorRole: Supervisor }>(token, documents.setSupervisorRole, { username, role })).setSupervisorRole;
}

export async function revokeSession(token: string, id: string): Promise<void> {
  await graphql(token, documents.revokeSession, { id });
}

export async function revokeToken(token: string, id: string): Promise<void> {
  await graphql(token, documents.revokeToken, { id });
}
