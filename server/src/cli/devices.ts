import { bindingOf, unbindKey } from '../binding/store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { UsageError, type ParsedArgs } from './args.js';

const print = (text: string) => process.stdout.write(`${text}\n`);

/** `vigil devices key|unbind DEVICE_ID`: a device's binding (README, "Device binding"), shown or forgotten. */
export async function devicesCommand(args: ParsedArgs): Promise<void> {
  const [, sub, deviceId] = args.positionals;
  const json = args.flags.get('json') === true;
  if ((sub !== 'key' && sub !== 'unbind') || !deviceId) throw new UsageError('devices key|unbind needs DEVICE_ID');
  const database = await openDatabase(loadConfig().env, { migrate: true, purpose: `vigil devices ${sub}` });
  try {
    if (sub === 'key') {
      const row = await bindingOf(database.db, deviceId);
      const view = row && {
        device_id: row.deviceId,
        key_id: row.keyId,
        attestation: row.attestation,
        attestation_problem: row.attestationProblem,
        created_at: row.createdAt,
      };
      if (json) print(JSON.stringify(view));
      else
        print(
          view
            ? `${deviceId}: key ${view.key_id}, ${view.attestation}${view.attestation_problem ? ` (${view.attestation_problem})` : ''}, bound ${view.created_at.toISOString()}`
            : `${deviceId} is not bound to a key.`,
        );
    } else {
      const removed = await unbindKey(database.db, deviceId);
      if (json) print(JSON.stringify({ device_id: deviceId, unbound: removed }));
      else print(removed ? `${deviceId} is no longer bound; its next registration with a key binds that key.` : `${deviceId} was not bound to a key.`);
    }
  } finally {
    await database.close();
  }
}
