import { Arg, Ctx, Float, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ComplexityEstimatorArgs } from 'graphql-query-complexity';
import type { z } from 'zod';
import { VigilError } from '../../errors.js';
import { countDevices, listDevices, type DeviceFilter as Filter } from '../../registry/listing.js';
import { refuseTooManyDevices, registryInput, registryLimits } from '../../registry/schemas.js';
import type { Command } from '../../registry/state.js';
import { validationError } from '../../errors.js';
import type { GraphqlContext } from '../context.js';
import { createLoaders } from '../loaders.js';
import { connectionCost, deviceRows, perItem } from '../cost.js';
import { AuditRecord, BulkDeviceResult, Device, DeviceBinding, DeviceConnection, DeviceFilter, Registration } from '../types/device.js';
import { BulkOutcomeEnum, DeviceSortEnum } from '../types/enums.js';
import { Event } from '../types/event.js';
import { toAudit, toEvent, toRegistration } from './mapping.js';
import { pageSize, sublistSize, connection } from './paging.js';

/** Connections remember their filter so totalCount is only counted when asked for. */
type DeviceConnectionSource = DeviceConnection & { filter: Filter };

/** An argument checked by the registry's input rule for it (the same rule REST bodies use), the error at `field`. */
function checked<T extends z.ZodType>(value: unknown, schema: T, field: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, `Invalid ${field}`, field);
  return parsed.data;
}

/** The GraphQL filter as the registry reads it; deviceStats filters through it too. */
export const toFilter = (f: DeviceFilter | null | undefined): Filter => ({
  role: f?.role ?? undefined,
  branch: f?.branch ?? undefined,
  status: f?.status ?? undefined,
  userId: f?.userId ?? undefined,
  tag: f?.tag ?? undefined,
  idPrefix: f?.idPrefix ?? undefined,
  userIdPrefix: f?.userIdPrefix ?? undefined,
});

const byRisk = [DeviceSortEnum.RISK_DESC, DeviceSortEnum.RISK_ASC] as unknown[];
const plainCost = connectionCost('devices', 50, deviceRows);
// Ordering by risk probes every matching device's latest event, as a tag filter does: priced as one more read each.
const riskCost = connectionCost('devices', 50, (rows, filter) => deviceRows(rows, filter) + rows.devices + rows.registrations);
const devicesCost = (args: ComplexityEstimatorArgs) => (byRisk.includes(args.args.sort) ? riskCost(args) : plainCost(args));

/** A bulk mutation's answer costs its selection once per id. */
const perId = (args: ComplexityEstimatorArgs): number => 1 + args.childComplexity * (Array.isArray(args.args.ids) ? args.args.ids.length : 1);

function boundedIds(ids: readonly string[]): string[] {
  refuseTooManyDevices(ids.length, 'ids');
  return checked(ids, registryInput.deviceIds, 'ids');
}

@Resolver(() => DeviceConnection)
export class DeviceConnectionResolver {
  @FieldResolver(() => Int, { complexity: 0 })
  async totalCount(@Root() connection: DeviceConnectionSource, @Ctx() ctx: GraphqlContext): Promise<number> {
    return countDevices(ctx.services.database.reporting, connection.filter, ctx.countCap);
  }
}

@Resolver(() => Device)
export class DeviceResolver {
  @Query(() => DeviceConnection, { description: 'Devices (seen, registered or both), filtered and paged.', complexity: devicesCost })
  async devices(
    @Ctx() ctx: GraphqlContext,
    @Arg('filter', () => DeviceFilter, { nullable: true }) filter: DeviceFilter | null,
    @Arg('first', () => Int, { nullable: true, description: '1 to 500, default 50.' }) first: number | null,
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('sort', () => DeviceSortEnum, { nullable: true, defaultValue: DeviceSortEnum.DEVICE_ID }) sort: DeviceSortEnum,
  ): Promise<DeviceConnectionSource> {
    ctx.require('read');
    const limit = pageSize(first);
    const query = toFilter(filter);
    const page = await listDevices(ctx.services.database.reporting, { filter: query, sort, limit, cursor: after ?? undefined, cursorField: 'after' });
    const edges = page.devices.map((d, i) => {
      // The listing already read each registration: prime the loader so fields resolve without a query.
      ctx.loaders.registration.prime(d.deviceId, d.registration);
      ctx.loaders.device.prime(d.deviceId, d);
      return { cursor: page.cursors[i]!, node: d };
    });
    return connection(edges, page.nextCursor, after, query);
  }

  @Query(() => Device, { nullable: true, description: 'One device by its device_id; null when unknown.' })
  async device(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<Device | null> {
    ctx.require('read');
    const found = await ctx.loaders.device.load(id);
    return found ?? null;
  }

  @FieldResolver(() => Registration, { nullable: true })
  async registration(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<Registration | null> {
    const r = await ctx.loaders.registration.load(device.deviceId);
    return r ? toRegistration(r) : null;
  }

  @FieldResolver(() => DeviceBinding, { nullable: true, description: 'The key the device is bound to; null when it is not bound.' })
  async binding(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<DeviceBinding | null> {
    return ctx.loaders.binding.load(device.deviceId);
  }

  @FieldResolver(() => [String], { description: "Tags of the device's latest event." })
  async currentTags(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<string[]> {
    return (await ctx.loaders.latest.load(device.deviceId)).tags;
  }

  @FieldResolver(() => Float, { nullable: true, description: "Score of the device's latest event (0..1); null when it sent none." })
  async riskScore(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<number | null> {
    return (await ctx.loaders.latest.load(device.deviceId)).riskScore;
  }

  @FieldResolver(() => [AuditRecord], { description: 'Registry audit trail, newest first.', complexity: perItem(20) })
  async history(
    @Root() device: Device,
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100, default 20.' }) first: number | null,
  ): Promise<AuditRecord[]> {
    const rows = await ctx.loaders.history(sublistSize(first, 100)).load(device.deviceId);
    return rows.map(toAudit);
  }

  @FieldResolver(() => [Event], { description: 'Latest events of the device, newest first.', complexity: perItem(20) })
  async recentEvents(
    @Root() device: Device,
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100, default 20.' }) first: number | null,
  ): Promise<Event[]> {
    const rows = await ctx.loaders.recentEvents(sublistSize(first, 100)).load(device.deviceId);
    return rows.map(toEvent);
  }

  @Mutation(() => [BulkDeviceResult], {
    description: `Deactivate many devices (supervisor or admin): 1 to ${registryLimits.bulkMaxDevices} ids, each in its own transaction, one result per distinct id in the order given.`,
    complexity: perId,
  })
  async deactivateDevices(
    @Ctx() ctx: GraphqlContext,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('reason', () => String) reason: string,
    @Arg('by', () => String, { nullable: true, description: "Recorded as given; default: the caller's username." }) by: string | null,
  ): Promise<BulkDeviceResult[]> {
    return this.moveEach(ctx, ids, (b) => ({ type: 'deactivate', reason: checked(reason, registryInput.reason, 'reason'), by: b }), by);
  }

  @Mutation(() => [BulkDeviceResult], {
    description: `Transfer many devices to one user (supervisor or admin): 1 to ${registryLimits.bulkMaxDevices} ids, each in its own transaction, one result per distinct id in the order given.`,
    complexity: perId,
  })
  async transferDevices(
    @Ctx() ctx: GraphqlContext,
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('newUserId', () => String) newUserId: string,
    @Arg('by', () => String, { nullable: true }) by: string | null,
  ): Promise<BulkDeviceResult[]> {
    return this.moveEach(ctx, ids, (b) => ({ type: 'transfer', newUserId: checked(newUserId, registryInput.userId, 'newUserId'), by: b }), by);
  }

  @Mutation(() => Device, { description: 'Deactivate a device (supervisor or admin). Idempotent: see `change` for what it did.' })
  async deactivateDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('reason', () => String) reason: string,
    @Arg('by', () => String, { nullable: true, description: "Recorded as given; default: the caller's username." }) by: string | null,
  ): Promise<Device> {
    return this.move(ctx, deviceId, (b) => ({ type: 'deactivate', reason: checked(reason, registryInput.reason, 'reason'), by: b }), by);
  }

  @Mutation(() => Device, { description: 'Reactivate a deactivated device (supervisor or admin). Idempotent.' })
  async reactivateDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('reason', () => String) reason: string,
    @Arg('by', () => String, { nullable: true }) by: string | null,
  ): Promise<Device> {
    return this.move(ctx, deviceId, (b) => ({ type: 'reactivate', reason: checked(reason, registryInput.reason, 'reason'), by: b }), by);
  }

  @Mutation(() => Device, { description: 'Transfer a registration to another user (supervisor or admin); starts a fresh association.' })
  async transferDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('newUserId', () => String) newUserId: string,
    @Arg('by', () => String, { nullable: true }) by: string | null,
  ): Promise<Device> {
    return this.move(ctx, deviceId, (b) => ({ type: 'transfer', newUserId: checked(newUserId, registryInput.userId, 'newUserId'), by: b }), by);
  }

  private by(ctx: GraphqlContext, by: string | null): string {
    return checked(by ?? ctx.principal.supervisor.username, registryInput.by, 'by');
  }

  private async move(ctx: GraphqlContext, deviceId: string, command: (by: string) => Command, by: string | null): Promise<Device> {
    ctx.require('manage_devices');
    const id = checked(deviceId, registryInput.deviceId, 'deviceId');
    const report = await ctx.services.supervisorDevices.apply(id, command(this.by(ctx, by)), ctx.principal);
    const found = await this.reload(ctx, [id]);
    if (!found[0]) throw new VigilError('not_found', `No device ${id}`);
    return { ...found[0], change: { changed: report.outcome === 'changed', message: report.message } };
  }

  private async moveEach(ctx: GraphqlContext, ids: string[], command: (by: string) => Command, by: string | null): Promise<BulkDeviceResult[]> {
    ctx.require('manage_devices');
    const valid = boundedIds(ids);
    const reports = await ctx.services.supervisorDevices.applyEach(valid, command(this.by(ctx, by)), ctx.principal);
    const found = await this.reload(
      ctx,
      reports.map((r) => r.deviceId),
    );
    return reports.map((r, i) => ({
      deviceId: r.deviceId,
      outcome: r.outcome as BulkOutcomeEnum,
      message: r.message,
      device: found[i] ?? null,
    }));
  }

  /**
   * The devices as they are after a move. What this request's loaders had read before is stale, and the rest of
   * the operation reads the primary: a replica may not have the change yet.
   */
  private async reload(ctx: GraphqlContext, ids: readonly string[]) {
    ctx.loaders = createLoaders(ctx.services.database.db);
    return ctx.loaders.device.loadMany(ids).then((all) => all.map((d) => (d instanceof Error ? null : d)));
  }
}
