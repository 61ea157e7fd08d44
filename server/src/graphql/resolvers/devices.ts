import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { VigilError } from '../../errors.js';
import { countDevices, encodeCursor, listDevices, type DeviceFilter as Filter } from '../../registry/listing.js';
import { deviceIdParam, registryLimits, text } from '../../registry/schemas.js';
import type { Command } from '../../registry/state.js';
import { validationError } from '../../http/problem.js';
import type { GraphqlContext } from '../context.js';
import { createLoaders } from '../loaders.js';
import { connectionCost, deviceRows, perItem } from '../cost.js';
import { AuditRecord, Device, DeviceConnection, DeviceFilter, Registration } from '../types/device.js';
import { DeviceSortEnum } from '../types/enums.js';
import { Event } from '../types/event.js';
import { toAudit, toDevice, toEvent, toRegistration } from './mapping.js';
import { pageSize, sublistSize, connection } from './paging.js';

/** Connections remember their filter so totalCount is only counted when asked for. */
type DeviceConnectionSource = DeviceConnection & { filter: Filter };

function checked(value: string, schema: ReturnType<typeof text>, field: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, `Invalid ${field}`, field);
  return parsed.data;
}

const toFilter = (f: DeviceFilter | null | undefined): Filter => ({
  role: f?.role ?? undefined,
  branch: f?.branch ?? undefined,
  status: f?.status ?? undefined,
  userId: f?.userId ?? undefined,
  tag: f?.tag ?? undefined,
});

@Resolver(() => DeviceConnection)
export class DeviceConnectionResolver {
  @FieldResolver(() => Int, { complexity: 0 })
  async totalCount(@Root() connection: DeviceConnectionSource, @Ctx() ctx: GraphqlContext): Promise<number> {
    return countDevices(ctx.services.database.reporting, connection.filter, ctx.countCap);
  }
}

@Resolver(() => Device)
export class DeviceResolver {
  @Query(() => DeviceConnection, { description: 'Devices (seen, registered or both), filtered and paged.', complexity: connectionCost('devices', 50, deviceRows) })
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
    const page = await listDevices(ctx.services.database.reporting, { filter: query, sort: sort as 'device_id' | 'last_seen', limit, cursor: after ?? undefined });
    const edges = page.devices.map((d) => {
      // The listing already read each registration: prime the loader so fields resolve without a query.
      ctx.loaders.registration.prime(d.deviceId, d.registration);
      ctx.loaders.device.prime(d.deviceId, d);
      const cursor = encodeCursor({ s: sort === DeviceSortEnum.LAST_SEEN_DESC ? (d.lastSeen?.getTime() ?? 0) : null, id: d.deviceId });
      return { cursor, node: toDevice(d) };
    });
    return connection(edges, page.nextCursor, after, query);
  }

  @Query(() => Device, { nullable: true, description: 'One device by its device_id; null when unknown.' })
  async device(@Ctx() ctx: GraphqlContext, @Arg('id', () => ID) id: string): Promise<Device | null> {
    ctx.require('read');
    const found = await ctx.loaders.device.load(id);
    return found ? toDevice(found) : null;
  }

  @FieldResolver(() => Registration, { nullable: true })
  async registration(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<Registration | null> {
    const r = await ctx.loaders.registration.load(device.id);
    return r ? toRegistration(r) : null;
  }

  @FieldResolver(() => [String], { description: "Tags of the device's latest event." })
  async currentTags(@Root() device: Device, @Ctx() ctx: GraphqlContext): Promise<string[]> {
    return ctx.loaders.tags.load(device.id);
  }

  @FieldResolver(() => [AuditRecord], { description: 'Registry audit trail, newest first.', complexity: perItem(20) })
  async history(
    @Root() device: Device,
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100, default 20.' }) first: number | null,
  ): Promise<AuditRecord[]> {
    const rows = await ctx.loaders.history(sublistSize(first, 100)).load(device.id);
    return rows.map(toAudit);
  }

  @FieldResolver(() => [Event], { description: 'Latest events of the device, newest first.', complexity: perItem(20) })
  async recentEvents(
    @Root() device: Device,
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100, default 20.' }) first: number | null,
  ): Promise<Event[]> {
    const rows = await ctx.loaders.recentEvents(sublistSize(first, 100)).load(device.id);
    return rows.map(toEvent);
  }

  @Mutation(() => Device, { description: 'Deactivate a device (supervisor or admin). Idempotent.' })
  async deactivateDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('reason', () => String) reason: string,
    @Arg('by', () => String, { nullable: true, description: "Recorded as given; default: the caller's username." }) by: string | null,
  ): Promise<Device> {
    return this.move(ctx, deviceId, (b) => ({ type: 'deactivate', reason: checked(reason, text(registryLimits.reasonMax, 'reason'), 'reason'), by: b }), by);
  }

  @Mutation(() => Device, { description: 'Reactivate a deactivated device (supervisor or admin). Idempotent.' })
  async reactivateDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('reason', () => String) reason: string,
    @Arg('by', () => String, { nullable: true }) by: string | null,
  ): Promise<Device> {
    return this.move(ctx, deviceId, (b) => ({ type: 'reactivate', reason: checked(reason, text(registryLimits.reasonMax, 'reason'), 'reason'), by: b }), by);
  }

  @Mutation(() => Device, { description: 'Transfer a registration to another user (supervisor or admin); starts a fresh association.' })
  async transferDevice(
    @Ctx() ctx: GraphqlContext,
    @Arg('deviceId', () => ID) deviceId: string,
    @Arg('newUserId', () => String) newUserId: string,
    @Arg('by', () => String, { nullable: true }) by: string | null,
  ): Promise<Device> {
    return this.move(
      ctx,
      deviceId,
      (b) => ({ type: 'transfer', newUserId: checked(newUserId, text(registryLimits.userIdMax, 'newUserId'), 'newUserId'), by: b }),
      by,
    );
  }

  private async move(ctx: GraphqlContext, deviceId: string, command: (by: string) => Command, by: string | null): Promise<Device> {
    ctx.require('manage_devices');
    const id = checked(deviceId, deviceIdParam, 'deviceId');
    const who = checked(by ?? ctx.principal.supervisor.username, text(registryLimits.byMax, 'by'), 'by');
    await ctx.services.supervisorDevices.move(id, command(who), ctx.principal);
    // The rest of this operation (the device and its fields) reads the primary: a replica may not have the change yet.
    ctx.loaders = createLoaders(ctx.services.database.db);
    const found = await ctx.loaders.device.load(id);
    if (!found) throw new VigilError('not_found', `No device ${id}`);
    return toDevice(found);
  }
}
