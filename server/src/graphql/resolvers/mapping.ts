import type { RegistryAuditRow } from '@vigil/drizzle/schema';
import type { Registration as RegistrationState } from '../../registry/state.js';
import type { EventSummary } from '../../reporting/events.js';
import type { AuditRecord, Registration } from '../types/device.js';
import { AuditActionEnum, DeviceStatusEnum } from '../types/enums.js';
import type { Event } from '../types/event.js';
import { insightFields } from './event-insights.js';

export const toRegistration = (r: RegistrationState): Registration => ({
  userId: r.userId,
  role: r.role,
  branch: typeof r.metadata.branch === 'string' ? r.metadata.branch : r.metadata.branch == null ? null : String(r.metadata.branch),
  metadata: r.metadata,
  status: r.status as DeviceStatusEnum,
  registeredAt: r.registeredAt,
  associatedSince: r.associatedSince,
  deactivatedAt: r.deactivatedAt,
  deactivationReason: r.deactivationReason,
  deactivatedBy: r.deactivatedBy,
});

export const toAudit = (a: RegistryAuditRow): AuditRecord => ({
  id: a.id,
  action: a.action as AuditActionEnum,
  deviceId: a.deviceId,
  fromUser: a.fromUser,
  toUser: a.toUser,
  reason: a.reason,
  by: a.by,
  actor: { kind: a.actorKind, id: a.actorId, name: a.actorName },
  metadata: a.metadata,
  at: a.at,
});

export const toEvent = (e: EventSummary): Event => ({
  id: e.id,
  name: e.name,
  identity: e.identity,
  deviceId: e.deviceId,
  handprintId: e.handprintId,
  sessionId: e.sessionId,
  ip: e.ip,
  userAgent: e.userAgent,
  tags: e.tags,
  riskScore: e.riskScore,
  properties: e.properties,
  occurredAt: e.occurredAt,
  receivedAt: e.receivedAt,
  ...insightFields(e.response),
});
