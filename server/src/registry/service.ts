import type { DatabaseHandle, Queryable } from '../db/handle.js';
import type { Principal } from '../auth/supervisor-store.js';
import { VigilError } from '../errors.js';
import type { Actor } from './actor.js';
import { currentTagsOf, devicesById, listDevices, type DevicePageRequest, type DeviceSummary } from './listing.js';
import { refusalError } from './refusals.js';
import type { RegistryRepository } from './repository.js';
import type { Command } from './state.js';
import type { SupervisorDeviceView } from './view-schemas.js';
import { auditView } from './views.js';

export const supervisorActor = (p: Principal): Actor => ({ kind: 'supervisor', id: p.supervisor.id, name: p.supervisor.username });

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** A device as the supervisor REST API answers it. */
export function deviceView(d: DeviceSummary, tags: string[]): SupervisorDeviceView {
  const r = d.registration;
  return {
    device_id: d.deviceId,
    user_id: r?.userId ?? null,
    role: r?.role ?? null,
    metadata: r?.metadata ?? {},
    status: d.status,
    registered_at: iso(r?.registeredAt),
    deactivated_at: iso(r?.deactivatedAt),
    deactivation_reason: r?.deactivationReason ?? null,
    first_seen: iso(d.firstSeen),
    last_seen: iso(d.lastSeen),
    handprint_id: d.handprintId,
    current_tags: tags,
    model: d.model,
    os_version: d.osVersion,
  };
}

export type DeviceView = SupervisorDeviceView;

/** What the supervisor REST routes do, over the repository and the listing queries. */
export class SupervisorDevices {
  constructor(
    private readonly database: DatabaseHandle,
    private readonly registry: RegistryRepository,
  ) {}

  // Reads run on the reporting connections (DatabaseHandle.reporting): a slow listing never holds ingestion's.
  async list(request: DevicePageRequest) {
    const page = await listDevices(this.database.reporting, request);
    const tags = await currentTagsOf(this.database.reporting, page.devices.map((d) => d.deviceId));
    return { devices: page.devices.map((d) => deviceView(d, tags.get(d.deviceId) ?? [])), next_cursor: page.nextCursor };
  }

  async one(deviceId: string, db: Queryable = this.database.reporting): Promise<DeviceView> {
    const found = (await devicesById(db, [deviceId])).get(deviceId);
    if (!found) throw new VigilError('not_found', `No device ${deviceId}`);
    const tags = await currentTagsOf(db, [deviceId]);
    return deviceView(found, tags.get(deviceId) ?? []);
  }

  async detail(deviceId: string) {
    const device = await this.one(deviceId);
    const history = await this.registry.history(deviceId);
    return { ...device, history: history.map(auditView) };
  }

  /** Applies a supervisor's move; refusals become the catalog's errors. */
  async move(deviceId: string, command: Command, principal: Principal): Promise<DeviceView> {
    const outcome = await this.registry.apply(deviceId, command, supervisorActor(principal));
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    // Read back from the primary: a replica may not have the change yet.
    return this.one(deviceId, this.database.db);
  }
}
