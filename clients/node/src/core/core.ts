import { BatchSender, type CloseResult } from './batch-sender.js';
import { VigilError } from './errors.js';
import { prepareEvent } from './event.js';
import { failOpenInsights } from './fail-open.js';
import type { Insights } from './insights.js';
import type { ResolvedCoreOptions } from './options.js';
import { reportError } from './report.js';
import { SingleSender } from './single-sender.js';
import type { JsonObject } from './wire.js';

/** What a context adds to every event: the identity and the properties gathered by the chain. */
export interface EventContext {
  identity: string | undefined;
  properties: JsonObject;
}

/**
 * The runtime-neutral engine shared by every context derived from one client: the queue, the
 * senders and the options. It never throws: every failure goes to `onError`.
 */
export class VigilCore {
  private readonly batches: BatchSender;
  private readonly single: SingleSender;

  constructor(readonly options: ResolvedCoreOptions) {
    this.batches = new BatchSender(options);
    this.single = new SingleSender(options, this.batches);
  }

  track(name: string, context: EventContext): void {
    const prepared = this.prepare(name, context);
    if (prepared instanceof VigilError) {
      reportError(this.options, prepared);
      return;
    }
    this.batches.enqueue(prepared.event, prepared.bytes);
  }

  trackAsync(name: string, context: EventContext, timeoutMs = this.options.timeout): Promise<Insights> {
    const prepared = this.prepare(name, context);
    if (prepared instanceof VigilError) {
      reportError(this.options, prepared);
      const attempted = { event: String(name), identity: context.identity, properties: context.properties };
      return Promise.resolve(failOpenInsights(this.options, prepared, attempted));
    }
    return this.single.send(prepared, timeoutMs);
  }

  /** Events queued or in flight. */
  get queued(): number {
    return this.batches.size;
  }

  flush(): Promise<void> {
    return this.batches.flush();
  }

  close(timeoutMs = this.options.closeTimeout): Promise<CloseResult> {
    return this.batches.close(timeoutMs);
  }

  private prepare(name: string, context: EventContext) {
    return prepareEvent(name, context.identity, context.properties, this.options.clock.now(), this.options.newId);
  }
}
