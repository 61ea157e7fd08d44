import { KeyStore, type KeyKind } from '../auth/key-store.js';
import { tokenExpiry } from '../auth/token-expiry.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { VigilError } from '../errors.js';
import { overlapHoursFlag, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

export async function keysCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  if (sub === 'create') {
    const kind = stringFlag(args, 'kind');
    const name = stringFlag(args, 'name');
    if (kind !== 'write' && kind !== 'client') throw new UsageError('keys create needs --kind write|client');
    if (!name) throw new UsageError('keys create needs --name NAME');
    const days = stringFlag(args, 'expires-in-days');
    const at = stringFlag(args, 'expires-at');
    await withKeys(io, async (keys) => {
      // Keys never expire unless told to: a backend losing its key on a date nobody chose would drop events.
      const expiresAt = tokenExpiry(
        { expiresInDays: days === undefined ? null : Number(days), expiresAt: at === undefined ? null : new Date(at) },
        0,
        new Date(),
      );
      const created = await keys.create(kind as KeyKind, name, undefined, expiresAt);
      const expires = created.expires_at ? `expires ${created.expires_at}` : 'never expires';
      if (json) print(JSON.stringify({ id: created.id, kind: created.kind, name: created.name, key: created.key, expires_at: created.expires_at }));
      else print(`Created ${kind} key ${created.id} (${name}), ${expires}. Shown once, store it now:\n${created.key}`);
    });
  } else if (sub === 'rotate') {
    if (!id) throw new UsageError('keys rotate needs the key id (see keys list)');
    const overlapHours = overlapHoursFlag(args);
    await withKeys(io, async (keys) => {
      const rotated = await keys.rotate(id, overlapHours);
      const oldUntil = rotated.previous.expires_at!;
      if (json)
        print(
          JSON.stringify({
            id: rotated.id,
            kind: rotated.kind,
            name: rotated.name,
            key: rotated.key,
            expires_at: rotated.expires_at,
            previous: { id, expires_at: oldUntil },
          }),
        );
      else print(`Rotated ${id} into ${rotated.id}; ${id} works until ${oldUntil}. Shown once, store it now:\n${rotated.key}`);
    });
  } else if (sub === 'list') {
    await withKeys(io, async (keys) => {
      const listing = await keys.list();
      if (json) {
        print(JSON.stringify(listing));
        return;
      }
      if (listing.length === 0) print('No keys.');
      for (const k of listing) {
        const replaced = k.replaced_by ? `  replaced by ${k.replaced_by}` : '';
        print(
          `${k.id}  ${k.kind.padEnd(6)}  ${k.display_prefix}…  ${k.status.padEnd(8)}  expires ${k.expires_at ?? 'never'}  last used ${k.last_used_at ?? 'never'}  ${k.name}${replaced}`,
        );
      }
    });
  } else if (sub === 'revoke') {
    if (!id) throw new UsageError('keys revoke needs the key id (see keys list)');
    await withKeys(io, async (keys) => {
      if (!(await keys.revoke(id))) throw new UsageError(`No key ${id}`);
      print(`Revoked ${id}.`);
    });
  } else {
    throw new UsageError(
      'keys create --kind write|client --name NAME [--expires-in-days D | --expires-at ISO] [--json] | keys list [--json] | keys rotate ID [--overlap-hours H] [--json] | keys revoke ID',
    );
  }
}

async function withKeys(io: CliIo, work: (keys: KeyStore) => Promise<void>): Promise<void> {
  const config = loadConfig(io.env);
  const database = await openDatabase(config.env, { migrate: true, purpose: 'vigil keys' });
  try {
    await work(new KeyStore(database, { defaultOverlapHours: config.env.VIGIL_KEY_ROTATION_OVERLAP_HOURS }));
  } catch (error) {
    // Expected refusals (no such key, one already rotated, a bad expiry) are usage errors with a clear sentence.
    if (error instanceof VigilError) throw new UsageError(error.message);
    throw error;
  } finally {
    await database.close();
  }
}
