import { userInfo } from 'node:os';
import type { Actor } from '../auth/account-audit.js';
import { Accounts } from '../auth/accounts.js';
import { credentialState } from '../auth/lifetimes.js';
import { isSupervisorRole, supervisorRoles } from '../auth/roles.js';
import { SupervisorStore, type CredentialListing, type Supervisor } from '../auth/supervisor-store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { VigilError } from '../errors.js';
import { overlapHoursFlag, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

async function readStdin(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The CLI acts with shell access to the server; the audit names the operating-system user who ran it. */
export function cliActor(): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the audit still says it was the CLI.
  }
  return { kind: 'cli', id: null, name: `cli:${user}` };
}

const supervisorJson = (s: Supervisor) => ({
  id: s.id,
  username: s.username,
  role: s.role,
  created_at: s.createdAt.toISOString(),
  disabled_at: s.disabledAt?.toISOString() ?? null,
});

const credentialStatus = (c: CredentialListing, now = new Date()): string => credentialState(c, now);

const when = (d: Date | null, none: string) => d?.toISOString() ?? none;

function printCredentials(print: (text: string) => void, list: CredentialListing[], json: boolean): void {
  if (json) print(JSON.stringify(list.map((c) => ({ ...c, status: credentialStatus(c) }))));
  else {
    for (const c of list) {
      print(
        `${c.id}  ${c.displayPrefix}…  ${credentialStatus(c).padEnd(7)}  ${c.username}  ${c.name}  created ${c.createdAt.toISOString()}` +
          `  expires ${when(c.expiresAt, 'never')}  last used ${when(c.lastUsedAt, 'never')}`,
      );
    }
  }
}

const SUPERVISORS_USAGE = `supervisors create --username U --role ${supervisorRoles.join('|')} [--password-stdin] [--json] | supervisors list [--json]
  | supervisors disable|enable|delete|reset-password --username U [--json] | supervisors set-role --username U --role R [--json]
  | supervisors sessions [--username U] [--json] | supervisors revoke-session ID | supervisors audit [--username U] [--limit N] [--json]`;

/** `supervisors …`: accounts for the console, GraphQL and the supervisor REST API, and what an admin does to them. */
export async function supervisorsCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  const username = stringFlag(args, 'username');
  const needUsername = () => {
    if (!username) throw new UsageError(`supervisors ${sub} needs --username U`);
    return username;
  };
  if (sub === 'create') {
    const role = stringFlag(args, 'role');
    const name = needUsername();
    if (!isSupervisorRole(role)) throw new UsageError(`supervisors create needs --role ${supervisorRoles.join('|')}`);
    // With --password-stdin the operator chooses the password (never on the command line, where ps shows it).
    const fromStdin = args.flags.get('password-stdin') === true;
    const password = fromStdin ? await readStdin(io.stdin) : undefined;
    await withAccounts(io, async ({ accounts }) => {
      const created = await accounts.create(cliActor(), name, role, password);
      const shown = fromStdin ? null : created.password;
      if (json) print(JSON.stringify({ username: name, role, password: shown }));
      else if (shown) print(`Created ${role} ${name}. Password, shown once:\n${shown}`);
      else print(`Created ${role} ${name} with the password read from stdin.`);
    });
  } else if (sub === 'list') {
    await withAccounts(io, async ({ store }) => {
      const list = await store.list();
      if (json) print(JSON.stringify(list.map(supervisorJson)));
      else for (const s of list) print(`${s.id}  ${s.role.padEnd(10)}  ${(s.disabledAt ? 'disabled' : 'enabled').padEnd(8)}  ${s.username}`);
    });
  } else if (sub === 'disable') {
    const name = needUsername();
    await withAccounts(io, async ({ accounts }) => {
      const { supervisor, sessionsRevoked } = await accounts.disable(cliActor(), name);
      if (json) print(JSON.stringify({ ...supervisorJson(supervisor), sessions_revoked: sessionsRevoked }));
      else print(`Disabled ${name}: it cannot sign in, ${sessionsRevoked} session(s) ended, its tokens are refused until enabled.`);
    });
  } else if (sub === 'enable') {
    const name = needUsername();
    await withAccounts(io, async ({ accounts }) => {
      const supervisor = await accounts.enable(cliActor(), name);
      if (json) print(JSON.stringify(supervisorJson(supervisor)));
      else print(`Enabled ${name}. Its unrevoked tokens work again; revoked tokens and ended sessions stay so.`);
    });
  } else if (sub === 'delete') {
    const name = needUsername();
    await withAccounts(io, async ({ accounts }) => {
      const supervisor = await accounts.delete(cliActor(), name);
      if (json) print(JSON.stringify(supervisorJson(supervisor)));
      else print(`Deleted ${name} with its sessions and tokens.`);
    });
  } else if (sub === 'reset-password') {
    const name = needUsername();
    await withAccounts(io, async ({ accounts }) => {
      const reset = await accounts.resetPassword(cliActor(), name);
      if (json) print(JSON.stringify({ username: name, password: reset.password, sessions_revoked: reset.sessionsRevoked }));
      else print(`New password for ${name} (${reset.sessionsRevoked} session(s) ended). Shown once:\n${reset.password}`);
    });
  } else if (sub === 'set-role') {
    const name = needUsername();
    const role = stringFlag(args, 'role');
    if (!isSupervisorRole(role)) throw new UsageError(`supervisors set-role needs --role ${supervisorRoles.join('|')}`);
    await withAccounts(io, async ({ accounts }) => {
      const supervisor = await accounts.setRole(cliActor(), name, role);
      if (json) print(JSON.stringify(supervisorJson(supervisor)));
      else print(`${name} is now ${role}.`);
    });
  } else if (sub === 'sessions') {
    await withAccounts(io, async ({ accounts }) => printCredentials(print, await accounts.credentials('session', username), json));
  } else if (sub === 'revoke-session') {
    if (!id) throw new UsageError('supervisors revoke-session needs the session id (see supervisors sessions)');
    await withAccounts(io, async ({ accounts }) => {
      if (!(await accounts.revokeCredential(cliActor(), 'session', id))) throw new UsageError(`No session ${id}`);
      print(`Ended session ${id}.`);
    });
  } else if (sub === 'audit') {
    const limit = Number(stringFlag(args, 'limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000');
    await withAccounts(io, async ({ accounts }) => {
      const entries = await accounts.history({ username, limit });
      if (json) print(JSON.stringify(entries));
      else
        for (const e of entries)
          print(`${e.at.toISOString()}  ${e.actor.name}  ${e.action}  ${e.subject.username}${e.detail ? `  ${JSON.stringify(e.detail)}` : ''}`);
    });
  } else {
    throw new UsageError(SUPERVISORS_USAGE);
  }
}

/** `tokens create|list|revoke`: API tokens for REST and GraphQL clients. */
export async function tokensCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  if (sub === 'create') {
    const username = stringFlag(args, 'username');
    if (!username) throw new UsageError('tokens create needs --username U');
    const name = stringFlag(args, 'name') ?? 'cli';
    const days = stringFlag(args, 'expires-in-days');
    const at = stringFlag(args, 'expires-at');
    const expiry = { expiresInDays: days === undefined ? null : Number(days), expiresAt: at === undefined ? null : new Date(at) };
    await withAccounts(io, async ({ accounts }) => {
      const token = await accounts.createToken(cliActor(), username, name, expiry);
      const expires = token.expiresAt ? `expires ${token.expiresAt.toISOString()}` : 'never expires';
      if (json) print(JSON.stringify({ id: token.id, token: token.token, expires_at: token.expiresAt?.toISOString() ?? null }));
      else print(`Created token ${token.id} for ${username} (${token.supervisor.role}), ${expires}. Shown once, store it now:\n${token.token}`);
    });
  } else if (sub === 'list') {
    await withAccounts(io, async ({ accounts }) => printCredentials(print, await accounts.credentials('token', stringFlag(args, 'username')), json));
  } else if (sub === 'rotate') {
    if (!id) throw new UsageError('tokens rotate needs the token id (see tokens list)');
    const overlapHours = overlapHoursFlag(args);
    await withAccounts(io, async ({ accounts }) => {
      const rotated = await accounts.rotateToken(cliActor(), id, overlapHours);
      const oldUntil = rotated.previous.expiresAt!.toISOString();
      if (json)
        print(
          JSON.stringify({
            id: rotated.id,
            token: rotated.token,
            expires_at: rotated.expiresAt?.toISOString() ?? null,
            previous: { id, expires_at: oldUntil },
          }),
        );
      else print(`Rotated ${id} into ${rotated.id}; ${id} works until ${oldUntil}. Shown once, store it now:\n${rotated.token}`);
    });
  } else if (sub === 'revoke') {
    if (!id) throw new UsageError('tokens revoke needs the token id (see tokens list)');
    await withAccounts(io, async ({ accounts }) => {
      if (!(await accounts.revokeCredential(cliActor(), 'token', id))) throw new UsageError(`No token ${id}`);
      print(`Revoked ${id}.`);
    });
  } else {
    throw new UsageError(
      'tokens create --username U [--name N] [--expires-in-days D | --expires-at ISO] [--json] | tokens list [--username U] [--json] | tokens rotate ID [--overlap-hours H] [--json] | tokens revoke ID',
    );
  }
}

async function withAccounts(io: CliIo, work: (parts: { store: SupervisorStore; accounts: Accounts }) => Promise<void>): Promise<void> {
  const { env } = loadConfig(io.env);
  const database = await openDatabase(env, { migrate: true, purpose: 'vigil supervisors' });
  try {
    const store = new SupervisorStore(database);
    const defaults = { defaultTokenTtlDays: env.VIGIL_API_TOKEN_DEFAULT_TTL_DAYS, defaultOverlapHours: env.VIGIL_KEY_ROTATION_OVERLAP_HOURS };
    await work({ store, accounts: new Accounts({ database, supervisors: store, ...defaults }) });
  } catch (error) {
    // Expected refusals (a taken username, a short password, the last admin) are usage errors with a clear sentence.
    if (error instanceof VigilError) throw new UsageError(error.message);
    throw error;
  } finally {
    await database.close();
  }
}
