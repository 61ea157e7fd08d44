import type { ApplyOutcome } from './repository.js';
import { refusalError } from './refusals.js';
import type { Command } from './state.js';

/** What one move did to one device: REST answers it in lower case, GraphQL as BulkOutcome. */
export type MoveOutcome = 'changed' | 'unchanged' | 'refused' | 'not_found';

export interface MoveReport {
  deviceId: string;
  outcome: MoveOutcome;
  /** Says exactly what changed, or why nothing did (a console shows it as it is). */
  message: string;
}

const quoted = (text: string) => JSON.stringify(text);

/** A repeat's reason is never recorded: say which one stays, and that a different new one was not applied. */
const reasonKept = (kept: string | null, given: string) =>
  kept === given ? `reason kept (${quoted(given)})` : `reason kept (${quoted(kept ?? '')}), new reason not applied (${quoted(given)})`;

/**
 * The feedback of a move, from what the registry decided. A repeat that changes nothing says so and names what it
 * kept, and what it did not apply (a second deactivation's reason is not recorded: the first one stays).
 */
export function describeMove(deviceId: string, command: Command, outcome: ApplyOutcome): MoveReport {
  const report = (kind: MoveOutcome, message: string): MoveReport => ({ deviceId, outcome: kind, message });
  if (!outcome.ok) {
    const kind = outcome.reason === 'unknown_device' ? 'not_found' : 'refused';
    return report(kind, refusalError(deviceId, outcome).message);
  }
  const now = outcome.registration;
  const before = outcome.previous;
  switch (command.type) {
    case 'deactivate':
      if (outcome.changed) return report('changed', `deactivated; reason ${quoted(command.reason)}`);
      return report(
        'unchanged',
        `already deactivated since ${now.deactivatedAt?.toISOString() ?? 'an unknown time'}; ${reasonKept(now.deactivationReason, command.reason)}`,
      );
    case 'reactivate':
      if (outcome.changed) return report('changed', `reactivated; reason ${quoted(command.reason)}`);
      return report('unchanged', `already active; reason not applied (${quoted(command.reason)})`);
    case 'transfer':
      if (outcome.changed) return report('changed', `transferred from ${before?.userId ?? 'nobody'} to ${now.userId}`);
      return report('unchanged', `already registered to ${now.userId}`);
    case 'register':
      return report(outcome.changed ? 'changed' : 'unchanged', outcome.changed ? `registered to ${now.userId}` : `already registered to ${now.userId}`);
  }
}
