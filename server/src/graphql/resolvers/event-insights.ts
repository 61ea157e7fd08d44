import type { Insights } from '../../pipeline/insights.js';
import { DeviceStatusEnum } from '../types/enums.js';
import type { EmailIntel, EventBehavior, EventDeviceState, PhoneIntel } from '../types/event-insights.js';
import type { Event } from '../types/event.js';

type InsightFields = Pick<Event, 'behaviors' | 'scoreBreakdown' | 'emailIntel' | 'phoneIntel' | 'warnings' | 'deviceIdAgeDays' | 'deviceState'>;

const text = (v: unknown): string | null => (v == null ? null : typeof v === 'string' ? v : String(v));
const date = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

function emailIntel(e: Record<string, unknown> | null | undefined): EmailIntel | null {
  if (!e) return null;
  return {
    address: String(e.address ?? ''),
    valid: e.valid === true,
    normalized: text(e.normalized),
    domain: text(e.domain),
    disposable: e.disposable === true,
    freeProvider: e.free_provider === true,
    roleAccount: e.role_account === true,
    firstSeen: date(e.first_seen),
    devicesSeen: int(e.devices_seen),
  };
}

function phoneIntel(p: Record<string, unknown> | null | undefined): PhoneIntel | null {
  if (!p) return null;
  return {
    number: String(p.number ?? ''),
    valid: p.valid === true,
    e164: text(p.e164),
    country: text(p.country),
    lineType: text(p.line_type),
    firstSeen: date(p.first_seen),
    identitiesSeen: int(p.identities_seen),
  };
}

function deviceState(d: Partial<Insights['device']> | undefined): EventDeviceState {
  const metadata = d?.metadata ?? {};
  return {
    isRegistered: d?.is_registered === true,
    isTrusted: d?.is_trusted === true,
    registeredTo: d?.registered_to ?? null,
    registeredAt: date(d?.registered_at),
    role: d?.role ?? null,
    branch: text(metadata.branch),
    metadata,
    ageDays: int(d?.age_days),
    isNew: d?.is_new === true,
    model: d?.model ?? null,
    osVersion: d?.os_version ?? null,
    status: (d?.status as DeviceStatusEnum | undefined) ?? DeviceStatusEnum.UNREGISTERED,
  };
}

/**
 * The insights an event was answered with, from its stored answer. Answers stored by older versions may lack a
 * field that was added since; such a field reads as empty, never as an error.
 */
export function insightFields(response: Record<string, unknown>): InsightFields {
  const r = response as Partial<Insights>;
  const behaviors: EventBehavior[] = Object.entries(r.behaviors ?? {})
    .map(([name, b]) => ({ name, count: b.count ?? null, sum: b.sum ?? null, unique: b.unique ?? null, values: b.values ?? null }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    behaviors,
    scoreBreakdown: r.score_breakdown ?? [],
    emailIntel: emailIntel(r.email_intel),
    phoneIntel: phoneIntel(r.phone_intel),
    warnings: r.warnings ?? [],
    deviceIdAgeDays: int(r.device_id_details?.age?.days),
    deviceState: deviceState(r.device),
  };
}
