import { isSupervisorRole, supervisorRoles } from '../auth/roles.js';
import { SupervisorStore } from '../auth/supervisor-store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { VigilError } from '../errors.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';

const print = (text: string) => process.stdout.write(`${text}\n`);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** `supervisors create|list`: accounts for the console, GraphQL and the supervisor REST API. */
export async function supervisorsCommand(args: ParsedArgs): Promise<void> {
  const [, sub] = args.positionals;
  const json = args.flags.get('json') === true;
  if (sub === 'create') {
    const username = stringFlag(args, 'username');
    const role = stringFlag(args, 'role');
    if (!username) throw new UsageError('supervisors create needs --username U');
    if (!isSupervisorRole(role)) throw new UsageError(`supervisors create needs --role ${supervisorRoles.join('|')}`);
    // With --password-stdin the operator chooses the password (never on the command line, where ps shows it).
    const fromStdin = args.flags.get('password-stdin') === true;
    const password = fromStdin ? await readStdin() : undefined;
    await withStore(async (store) => {
      const created = await store.create(username, role, password);
      const shown = fromStdin ? null : created.password;
      if (json) print(JSON.stringify({ username, role, password: shown }));
      else if (shown) print(`Created ${role} ${username}. Password, shown once:\n${shown}`);
      else print(`Created ${role} ${username} with the password read from stdin.`);
    });
  } else if (sub === 'list') {
    await withStore(async (store) => {
      const list = await store.list();
      if (json) print(JSON.stringify(list.map((s) => ({ id: s.id, username: s.username, role: s.role, created_at: s.createdAt.toISOString() }))));
      else for (const s of list) print(`${s.id}  ${s.role.padEnd(10)}  ${s.username}`);
    });
  } else {
    throw new UsageError(`supervisors create --username U --role ${supervisorRoles.join('|')} [--password-stdin] [--json] | supervisors list [--json]`);
  }
}

/** `tokens create|list|revoke`: API tokens for REST and GraphQL clients. */
export async function tokensCommand(args: ParsedArgs): Promise<void> {
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  if (sub === 'create') {
    const username = stringFlag(args, 'username');
    if (!username) throw new UsageError('tokens create needs --username U');
    const name = stringFlag(args, 'name') ?? 'cli';
    await withStore(async (store) => {
      const supervisor = await store.byUsername(username);
      if (!supervisor) throw new UsageError(`No supervisor ${username} (see supervisors list)`);
      const token = await store.createToken(supervisor.id, name);
      if (json) print(JSON.stringify({ id: token.id, token: token.token }));
      else print(`Created token ${token.id} for ${username} (${supervisor.role}). Shown once, store it now:\n${token.token}`);
    });
  } else if (sub === 'list') {
    await withStore(async (store) => {
      const list = await store.tokens();
      if (json) print(JSON.stringify(list));
      else for (const t of list) print(`${t.id}  ${t.displayPrefix}…  ${t.revokedAt ? 'revoked' : 'active '}  ${t.username}  ${t.name}`);
    });
  } else if (sub === 'revoke') {
    if (!id) throw new UsageError('tokens revoke needs the token id (see tokens list)');
    await withStore(async (store) => {
      if (!(await store.revoke(id, 'token'))) throw new UsageError(`No token ${id}`);
      print(`Revoked ${id}.`);
    });
  } else {
    throw new UsageError('tokens create --username U [--name N] [--json] | tokens list [--json] | tokens revoke ID');
  }
}

async function withStore(work: (store: SupervisorStore) => Promise<void>): Promise<void> {
  const database = await openDatabase(loadConfig().env, { migrate: true, purpose: 'vigil supervisors' });
  try {
    await work(new SupervisorStore(database));
  } catch (error) {
    // Expected refusals (a taken username, a short password) are usage errors with a clear sentence.
    if (error instanceof VigilError) throw new UsageError(error.message);
    throw error;
  } finally {
    await database.close();
  }
}
