import type { DatabaseHandle, Queryable } from '../db/handle.js';
import type { Principal } from '../auth/supervisor-store.js';
import { VigilError } from '../errors.js';
import type { Actor } from './actor.js';
import { describeMove, type MoveReport } from './feedback.js';
import { devicesById, latestEventsOf, listDevices, type DevicePageRequest, type DeviceSummary, type LatestEvent } from './listing.js';
import { refusalError } from './refusals.js';
import type { RegistryRepository } from './repository.js';
import type { Command } from './state.js';
import type { SupervisorDeviceView } from './view-schemas.js';
import { auditView, deviceView } from './views.js';

export const supervisorActor = (p: Principal): Actor => ({ kind: 'supervisor', id: p.supervisor.id, name: p.supervisor.username });

const noEvent: LatestEvent = { tags: [], riskScore: null };

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
    const views = await this.viewsOf(page.devices);
    return { devices: views, next_cursor: page.nextCursor };
  }

  /** A page as an export reads it: the views, the cursor after each, and whether more follow. */
  async page(request: DevicePageRequest) {
    const page = await listDevices(this.database.reporting, request);
    return { rows: await this.viewsOf(page.devices), cursors: page.cursors, more: page.nextCursor !== null };
  }

  /** Views of listed devices: their latest events in one query. */
  async viewsOf(summaries: readonly DeviceSummary[], db: Queryable = this.database.reporting): Promise<DeviceView[]> {
    const latest = await latestEventsOf(
      db,
      summaries.map((d) => d.deviceId),
    );
    return summaries.map((d) => deviceView(d, latest.get(d.deviceId) ?? noEvent));
  }

  /**
   * Views of the given devices that exist (unknown ids are left out). After a move, read them with the primary's
   * `db`: a replica may not have the change yet.
   */
  async views(deviceIds: readonly string[], db: Queryable = this.database.reporting): Promise<Map<string, DeviceView>> {
    const found = [...(await devicesById(db, deviceIds)).values()];
    return new Map((await this.viewsOf(found, db)).map((v) => [v.device_id, v]));
  }

  async one(deviceId: string, db: Queryable = this.database.reporting): Promise<DeviceView> {
    const found = (await this.views([deviceId], db)).get(deviceId);
    if (!found) throw new VigilError('not_found', `No device ${deviceId}`);
    return found;
  }

  async detail(deviceId: string) {
    const device = await this.one(deviceId);
    const history = await this.registry.history(deviceId);
    return { ...device, history: history.map(auditView) };
  }

  /** Applies a supervisor's move; refusals become the catalog's errors, and the report says what changed. */
  async apply(deviceId: string, command: Command, principal: Principal): Promise<MoveReport> {
    const outcome = await this.registry.apply(deviceId, command, supervisorActor(principal));
    if (!outcome.ok) throw refusalError(deviceId, outcome);
    return describeMove(deviceId, command, outcome);
  }

  /** The updated device, with what the move changed (`change.changed` false: nothing was written). */
  async move(deviceId: string, command: Command, principal: Principal): Promise<DeviceView & { change: { changed: boolean; message: string } }> {
    const report = await this.apply(deviceId, command, principal);
    return { ...(await this.one(deviceId, this.database.db)), change: { changed: report.outcome === 'changed', message: report.message } };
  }

  /**
   * One move on many devices, each in its own transaction (as a single move): a refusal or an unknown id is that
   * device's outcome, never the others'. Repeated ids are moved and reported once, in the order given. A database
   * fault fails the call (503) with the devices before it already moved; a retry is safe, as moves are idempotent.
   */
  async applyEach(deviceIds: readonly string[], command: Command, principal: Principal): Promise<MoveReport[]> {
    const reports: MoveReport[] = [];
    for (const deviceId of new Set(deviceIds)) {
      reports.push(describeMove(deviceId, command, await this.registry.apply(deviceId, command, supervisorActor(principal))));
    }
    return reports;
  }

  /** The REST answer of a bulk move: each device's outcome, message and (when it exists) its view now. */
  async bulk(deviceIds: readonly string[], command: Command, principal: Principal) {
    const reports = await this.applyEach(deviceIds, command, principal);
    const views = await this.views(
      reports.map((r) => r.deviceId),
      this.database.db,
    );
    return {
      results: reports.map((r) => ({ device_id: r.deviceId, outcome: r.outcome, message: r.message, device: views.get(r.deviceId) ?? null })),
    };
  }
}
