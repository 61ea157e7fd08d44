import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { countEvents, listEvents, type EventFilter as Filter } from '../../reporting/events.js';
import { settledBefore } from '../../reporting/settled.js';
import type { GraphqlContext } from '../context.js';
import { connectionCost, eventRows } from '../cost.js';
import { EventConnection, EventFilter, EventOrderEnum } from '../types/event.js';
import { toEvent } from './mapping.js';
import { pageSize, connection } from './paging.js';

type EventConnectionSource = EventConnection & { filter: Filter };

@Resolver(() => EventConnection)
export class EventResolver {
  @Query(() => EventConnection, {
    description: 'Stored events, filtered and paged in the order asked (newest first by default).',
    complexity: connectionCost('events', 50, eventRows),
  })
  async events(
    @Ctx() ctx: GraphqlContext,
    @Arg('filter', () => EventFilter, { nullable: true }) filter: EventFilter | null,
    @Arg('first', () => Int, { nullable: true, description: '1 to 500, default 50.' }) first: number | null,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page, read in the same order.' }) after: string | null,
    @Arg('order', () => EventOrderEnum, { nullable: true, defaultValue: EventOrderEnum.NEWEST_FIRST }) order: EventOrderEnum | null,
  ): Promise<EventConnectionSource> {
    ctx.require('read');
    const query: Filter = { ...(filter ?? {}) };
    const page = await listEvents(ctx.services.database.reporting, query, pageSize(first), after, {
      order: order ?? EventOrderEnum.NEWEST_FIRST,
      receivedBefore: settledBefore(ctx.services.database, ctx.receivedSettleMs),
    });
    const edges = page.events.map((e, i) => ({ cursor: page.cursors[i]!, node: toEvent(e) }));
    return connection(edges, page.nextCursor, after, query);
  }

  @FieldResolver(() => Int, { complexity: 0 })
  async totalCount(@Root() connection: EventConnectionSource, @Ctx() ctx: GraphqlContext): Promise<number> {
    return countEvents(ctx.services.database.reporting, connection.filter, ctx.countCap);
  }
}
