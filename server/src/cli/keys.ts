import { KeyStore, type KeyKind } from '../auth/key-store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';

const print = (text: string) => process.stdout.write(`${text}\n`);

export async function keysCommand(args: ParsedArgs): Promise<void> {
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  if (sub === 'create') {
    const kind = stringFlag(args, 'kind');
    const name = stringFlag(args, 'name');
    if (kind !== 'write' && kind !== 'client') throw new UsageError('keys create needs --kind write|client');
    if (!name) throw new UsageError('keys create needs --name NAME');
    await withKeys(async (keys) => {
      const created = await keys.create(kind as KeyKind, name);
      if (json) print(JSON.stringify({ id: created.id, kind: created.kind, name: created.name, key: created.key }));
      else print(`Created ${kind} key ${created.id} (${name}). Shown once, store it now:\n${created.key}`);
    });
  } else if (sub === 'list') {
    await withKeys(async (keys) => {
      const listing = await keys.list();
      if (json) {
        print(JSON.stringify(listing));
        return;
      }
      if (listing.length === 0) print('No keys.');
      for (const k of listing) {
        print(`${k.id}  ${k.kind.padEnd(6)}  ${k.display_prefix}…  ${k.status.padEnd(7)}  last used ${k.last_used_at ?? 'never'}  ${k.name}`);
      }
    });
  } else if (sub === 'revoke') {
    if (!id) throw new UsageError('keys revoke needs the key id (see keys list)');
    await withKeys(async (keys) => {
      if (!(await keys.revoke(id))) throw new UsageError(`No key ${id}`);
      print(`Revoked ${id}.`);
    });
  } else {
    throw new UsageError('keys create --kind write|client --name NAME [--json] | keys list [--json] | keys revoke ID');
  }
}

async function withKeys(work: (keys: KeyStore) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.env, { migrate: true, purpose: 'vigil keys' });
  try {
    await work(new KeyStore(database));
  } finally {
    await database.close();
  }
}
