import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import type { EventFilter as Filter } from '../../reporting/event-filter.js';
import type { EventSummary } from '../../reporting/events.js';
import { VigilError } from '../../errors.js';
import type { GraphqlContext } from '../context.js';
import { Event, EventFilter } from '../types/event.js';
import { toEvent } from './mapping.js';

const over = () =>
  new VigilError('validation_failed', 'Subscriptions run over graphql-ws (a WebSocket, subprotocol graphql-transport-ws) on /graphql, not over HTTP');

@Resolver()
export class LiveResolver {
  @Subscription(() => Event, {
    description:
      'Each event as it is stored, in any Vigil process on the database, when it matches the filter (as the events listing reads it). ' +
      'Over graphql-ws on /graphql; connectionParams { authorization: "Bearer <token>" }.',
    subscribe: ({ args, context }) => {
      const ctx = context as GraphqlContext;
      ctx.require('read');
      if (!ctx.live) throw over();
      const filter: Filter = { ...((args.filter as Filter | null | undefined) ?? {}) };
      return ctx.live.feed.subscribe(ctx.principal.supervisor.id, filter, ctx.live.slow);
    },
  })
  eventAdded(@Root() event: EventSummary | undefined, @Arg('filter', () => EventFilter, { nullable: true }) _filter: EventFilter | null): Event {
    // Over HTTP, Apollo executes a subscription as a query: there is no event, only a client at the wrong door.
    if (!event) throw over();
    return toEvent(event);
  }
}
