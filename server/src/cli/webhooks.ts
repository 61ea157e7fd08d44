import { loadConfig } from '../config/load.js';
import { openDatabase } from '../db/open.js';
import { VigilError } from '../errors.js';
import type { UpdateSubscriptionInput } from '../webhooks/subscriptions.js';
import { createWebhooks, type Webhooks } from '../webhooks/webhooks.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { lines, type CliIo } from './io.js';

const USAGE = `webhooks create --url URL --events TYPE,… [--tags TAG,…] [--score-threshold N] [--description D] [--json]
  webhooks list [--json] | webhooks update ID [--url URL] [--events …] [--tags …] [--score-threshold N] [--enable|--disable] [--json]
  webhooks delete ID | webhooks messages [--subscription ID] [--status pending|delivered|dead|cancelled] [--limit N] [--json]
  webhooks attempts MESSAGE_ID [--json] | webhooks redeliver MESSAGE_ID [--json]`;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function number(args: ParsedArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number`);
  return n;
}

/** The fields create and update share, from flags; absent flags are left out. */
function subscriptionFlags(args: ParsedArgs): UpdateSubscriptionInput {
  const input: UpdateSubscriptionInput = {};
  const url = stringFlag(args, 'url');
  if (url !== undefined) input.url = url;
  const events = list(stringFlag(args, 'events'));
  if (events) input.eventTypes = events as UpdateSubscriptionInput['eventTypes'];
  const tags = list(stringFlag(args, 'tags'));
  if (tags) input.tags = tags;
  const threshold = number(args, 'score-threshold');
  if (threshold !== undefined) input.scoreThreshold = threshold;
  const description = stringFlag(args, 'description');
  if (description !== undefined) input.description = description;
  if (args.flags.get('enable') === true) input.enabled = true;
  if (args.flags.get('disable') === true) input.enabled = false;
  return input;
}

/** `vigil webhooks …`: the same operations as admin GraphQL, for scripts and first setup. */
export async function webhooksCommand(args: ParsedArgs, io: CliIo): Promise<void> {
  const print = lines(io.stdout);
  const [, sub, id] = args.positionals;
  const json = args.flags.get('json') === true;
  const show = (value: unknown, text: string) => print(json ? JSON.stringify(value) : text);
  await withWebhooks(io, async ({ subscriptions, delivery }) => {
    switch (sub) {
      case 'create': {
        const input = subscriptionFlags(args);
        if (!input.url || !input.eventTypes) throw new UsageError(`webhooks create needs --url and --events\n  ${USAGE}`);
        const { subscription, secret } = await subscriptions.create({ ...input, url: input.url, eventTypes: input.eventTypes });
        return show(
          { ...subscription, secret },
          `Created webhook subscription ${subscription.id} → ${subscription.url}. Signing secret, shown once:\n${secret}`,
        );
      }
      case 'list': {
        const all = await subscriptions.list();
        return show(
          all,
          all.length === 0
            ? 'No webhook subscriptions.'
            : all.map((s) => `${s.id}  ${s.enabled ? 'enabled ' : `disabled (${s.disabledReason})`}  ${s.url}  ${s.eventTypes.join(',')}`).join('\n'),
        );
      }
      case 'update': {
        if (!id) throw new UsageError('webhooks update needs the subscription id');
        const updated = await subscriptions.update(id, subscriptionFlags(args));
        return show(updated, `Updated ${updated.id}.`);
      }
      case 'delete': {
        if (!id) throw new UsageError('webhooks delete needs the subscription id');
        const deleted = await subscriptions.delete(id);
        return show(deleted, `Deleted ${deleted.id}; its pending messages are cancelled.`);
      }
      case 'messages': {
        const status = stringFlag(args, 'status') as 'pending' | 'delivered' | 'dead' | 'cancelled' | undefined;
        if (status && !['pending', 'delivered', 'dead', 'cancelled'].includes(status))
          throw new UsageError('--status must be pending, delivered, dead or cancelled');
        const messages = await subscriptions.messages({ subscriptionId: stringFlag(args, 'subscription'), status, limit: number(args, 'limit') ?? 50 });
        return show(
          messages,
          messages.map((m) => `${m.id}  ${m.type.padEnd(28)}  ${m.status.padEnd(9)}  attempts ${m.attempts}  last ${m.lastStatus ?? '-'}`).join('\n') ||
            'No messages.',
        );
      }
      case 'attempts': {
        if (!id) throw new UsageError('webhooks attempts needs the message id');
        const attempts = await subscriptions.attempts(id);
        return show(
          attempts,
          attempts.map((a) => `#${a.attempt}  ${a.at.toISOString()}  ${a.status ?? '-'}  ${a.durationMs} ms  ${a.trigger}  ${a.error ?? ''}`).join('\n') ||
            'No attempts.',
        );
      }
      case 'redeliver': {
        if (!id) throw new UsageError('webhooks redeliver needs the message id');
        const result = await delivery.redeliver(id);
        if (!result) throw new UsageError(`No webhook message ${id}`);
        return show(result, `Sent again: ${result.status ?? 'no answer'} in ${result.durationMs} ms${result.error ? ` (${result.error})` : ''}.`);
      }
      default:
        throw new UsageError(USAGE);
    }
  });
}

async function withWebhooks(io: CliIo, work: (webhooks: Webhooks) => Promise<void>): Promise<void> {
  const config = loadConfig(io.env);
  const database = await openDatabase(config.env, { migrate: true, purpose: 'vigil webhooks' });
  // Not started: the CLI manages subscriptions and redelivers on request, it does not run the delivery loop.
  const webhooks = createWebhooks({ database, env: config.env, log: { warn: () => {} }, deliver: false });
  try {
    await work(webhooks);
  } catch (error) {
    // Refusals (a bad URL, an unknown id) are the operator's to fix: a sentence, not a stack.
    if (error instanceof VigilError) throw new UsageError(error.message);
    throw error;
  } finally {
    await webhooks.stop();
    await database.close();
  }
}
