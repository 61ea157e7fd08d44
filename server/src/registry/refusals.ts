import { VigilError } from '../errors.js';
import type { ApplyOutcome } from './repository.js';

/** Turns a refused move (data) into the error the edge answers; REST and GraphQL share it. */
export function refusalError(deviceId: string, outcome: Extract<ApplyOutcome, { ok: false }>): VigilError {
  switch (outcome.reason) {
    case 'unknown_device':
      return new VigilError('not_found', `No device ${deviceId}: it has sent no event and was never registered`);
    case 'device_not_registered':
      return new VigilError('device_not_registered', `Device ${deviceId} is not registered`);
    case 'device_deactivated':
      return new VigilError('device_deactivated', `Device ${deviceId} is deactivated; a supervisor must reactivate it first`);
    case 'device_registered_to_other_user':
      return new VigilError(
        'device_registered_to_other_user',
        `Device ${deviceId} is registered to another user; a supervisor can transfer it. The attempt was recorded.`,
      );
  }
}
