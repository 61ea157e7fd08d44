import { bindingView } from '../binding/schemas.js';
import { bindingsOf, unbindKey } from '../binding/store.js';
import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

/** `vigil devices key|unbind DEVICE_ID`: a device's binding (README, "Device binding"), shown or forgotten. */
export async function devicesCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const [, sub, deviceId] = args.positionals;
  const json = args.flags.get('json') === true;
  if ((sub !== 'key' && sub !== 'unbind') || !deviceId) throw new UsageError('devices key|unbind needs DEVICE_ID');
  const database = await openDatabase(loadConfig(io.env).env, { migrate: true, purpose: `vigil devices ${sub}` });
  try {
    if (sub === 'key') {
      const binding = bindingView((await bindingsOf(database.db, [deviceId])).get(deviceId));
      if (json) print(JSON.stringify(binding && { device_id: deviceId, ...binding }));
      else
        print(
          binding
            ? `${deviceId}: key ${binding.key_id}, ${binding.attestation}${binding.attestation_problem ? ` (${binding.attestation_problem})` : ''}, bound ${binding.bound_at}`
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
