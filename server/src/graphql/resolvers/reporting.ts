import { Arg, Ctx, GraphQLISODateTime, Query, Resolver } from 'type-graphql';
import { facets, riskSummary } from '../../reporting/summary.js';
import type { GraphqlContext } from '../context.js';
import { facetsCost, riskSummaryCost } from '../cost.js';
import { BucketEnum } from '../types/enums.js';
import { Facets, RiskSummary } from '../types/reporting.js';

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
}
