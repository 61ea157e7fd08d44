import type { RegistryAuditRow } from '@vigil/drizzle/schema';
import type { DeviceInfo } from '../pipeline/insights.js';
import type { DeviceSummary, LatestEvent } from './listing.js';
import type { DeviceStatus, Registration } from './state.js';
import type { AuditRecordView, RegistrationStatusView, RegistrationView, SupervisorDeviceView } from './view-schemas.js';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export const statusOf = (r: Registration | null): DeviceStatus => r?.status ?? 'unregistered';

/** The registry's part of DeviceInfo in an event response; trust is decided later, over every tag. */
export function deviceInfoOf(r: Registration | null): Partial<DeviceInfo> {
  return {
    is_registered: r !== null,
    registered_to: r?.userId ?? null,
    registered_at: iso(r?.registeredAt),
    role: r?.role ?? null,
    metadata: r?.metadata ?? {},
    status: statusOf(r),
  };
}

/** The DeviceRegistration answered by POST /devices/{id}/register. */
export function registrationResult(r: Registration): RegistrationView {
  return {
    device_id: r.deviceId,
    user_id: r.userId,
    role: r.role,
    registered_at: r.registeredAt.toISOString(),
    metadata: r.metadata,
  };
}

/** Registration status as the Android library reads it (GET /devices/{id}/registration, device deactivate). */
export function registrationStatus(deviceId: string, r: Registration | null): RegistrationStatusView {
  return {
    device_id: deviceId,
    is_registered: r !== null,
    user_id: r?.userId ?? null,
    is_active: r?.status === 'active',
    role: r?.role ?? null,
    status: statusOf(r),
    registered_at: iso(r?.registeredAt),
    deactivated_at: iso(r?.deactivatedAt),
    deactivation_reason: r?.deactivationReason ?? null,
    metadata: r?.metadata ?? {},
  };
}

export function auditView(a: RegistryAuditRow): AuditRecordView {
  return {
    id: a.id,
    // Written only by the registry, from these values (see the column's comment).
    action: a.action as AuditRecordView['action'],
    device_id: a.deviceId,
    from_user: a.fromUser,
    to_user: a.toUser,
    reason: a.reason,
    by: a.by,
    actor: { kind: a.actorKind as AuditRecordView['actor']['kind'], id: a.actorId, name: a.actorName },
    metadata: a.metadata,
    at: a.at.toISOString(),
  };
}

/**
 * A device as the supervisor REST API answers it: the one rendering of the registry's DeviceSummary, which GraphQL's
 * Device type exposes as it is (graphql/types/device.ts).
 */
export function deviceView(d: DeviceSummary, latest: LatestEvent): SupervisorDeviceView {
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
    current_tags: latest.tags,
    risk_score: latest.riskScore,
    model: d.model,
    os_version: d.osVersion,
  };
}
