import { Arg, Ctx, GraphQLISODateTime, Query, Resolver } from 'type-graphql';
import { deviceStats, type DeviceGroupKey } from '../../reporting/device-stats.js';
import type { EventFilter as Filter } from '../../reporting/event-filter.js';
import { eventStats, type EventGroupKey, type TimeBucket } from '../../reporting/event-stats.js';
import { facets, riskSummary } from '../../reporting/summary.js';
import type { GraphqlContext } from '../context.js';
import { deviceStatsCost, eventStatsCost, facetsCost, riskSummaryCost } from '../cost.js';
import { DeviceFilter } from '../types/device.js';
import { BucketEnum, DeviceStatusEnum } from '../types/enums.js';
import { EventFilter } from '../types/event.js';
import { DeviceGroupKeyEnum, DeviceStatsRow, EventGroupKeyEnum, EventStatsRow, Facets, RiskSummary, TimeBucketEnum } from '../types/reporting.js';
import { toFilter as toDeviceFilter } from './devices.js';

@Resolver()
export class ReportingResolver {
  @Query(() => RiskSummary, { description: 'Events per bucket in [from, to): count, mean score and count per tag.', complexity: riskSummaryCost })
  async riskSummary(
    @Ctx() ctx: GraphqlContext,
    @Arg('from', () => GraphQLISODateTime) from: Date,
    @Arg('to', () => GraphQLISODateTime) to: Date,
    @Arg('bucket', () => BucketEnum, { nullable: true, defaultValue: BucketEnum.DAY }) bucket: BucketEnum,
  ): Promise<RiskSummary> {
    ctx.require('read');
    const buckets = await riskSummary(ctx.services.database.reporting, from, to, bucket as 'hour' | 'day');
    return { from, to, bucket, buckets };
  }

  @Query(() => Facets, { description: 'Roles, branches, statuses and recent tags in use, with counts.', complexity: facetsCost })
  async facets(@Ctx() ctx: GraphqlContext): Promise<Facets> {
    ctx.require('read');
    return facets(ctx.services.database.reporting);
  }

  @Query(() => [EventStatsRow], {
    description:
      'Counts, mean and max score and distinct devices of the filtered events, per time bucket (in timeZone) × the groupBy keys. ' +
      'Without keys or bucket: one row of totals. Ordered by bucket, then event, tag, branch, role, user (nulls last); at most 10,000 rows.',
    complexity: eventStatsCost,
  })
  async eventStats(
    @Ctx() ctx: GraphqlContext,
    @Arg('filter', () => EventFilter, { nullable: true }) filter: EventFilter | null,
    @Arg('groupBy', () => [EventGroupKeyEnum]) groupBy: EventGroupKeyEnum[],
    @Arg('bucket', () => TimeBucketEnum, { nullable: true }) bucket: TimeBucketEnum | null,
    @Arg('timeZone', () => String, { nullable: true, defaultValue: 'UTC', description: 'IANA name: where days and weeks start.' }) timeZone: string | null,
  ): Promise<EventStatsRow[]> {
    ctx.require('read');
    // The whole filter, as the events listing takes it: every field it gains applies here too.
    const query: Filter = { ...(filter ?? {}) };
    return eventStats(ctx.services.database.reporting, {
      filter: query,
      groupBy: groupBy as EventGroupKey[],
      bucket: bucket as TimeBucket | null,
      timeZone: timeZone ?? 'UTC',
    });
  }

  @Query(() => [DeviceStatsRow], {
    description: 'Devices matching the filter (as `devices` lists them), counted per group. Without keys: one row, the total.',
    complexity: deviceStatsCost,
  })
  async deviceStats(
    @Ctx() ctx: GraphqlContext,
    @Arg('filter', () => DeviceFilter, { nullable: true }) filter: DeviceFilter | null,
    @Arg('groupBy', () => [DeviceGroupKeyEnum]) groupBy: DeviceGroupKeyEnum[],
  ): Promise<DeviceStatsRow[]> {
    ctx.require('read');
    const rows = await deviceStats(ctx.services.database.reporting, toDeviceFilter(filter), groupBy as DeviceGroupKey[]);
    return rows.map((r) => ({ ...r, status: r.status as DeviceStatusEnum | null }));
  }
}
