/** Shapes of the Vigil GraphQL answers the console reads (server/schema.graphql); dates are ISO strings. */

export type DeviceStatus = 'UNREGISTERED' | 'ACTIVE' | 'DEACTIVATED';
export type KeyKind = 'WRITE' | 'CLIENT';
export type SupervisorRole = 'ADMIN' | 'SUPERVISOR' | 'VIEWER';
export type Bucket = 'HOUR' | 'DAY';

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface Connection<T> {
  totalCount: number;
  pageInfo: PageInfo;
  nodes: T[];
}

export interface Registration {
  userId: string;
  role: string | null;
  branch: string | null;
  metadata: Record<string, unknown>;
  status: DeviceStatus;
  registeredAt: string;
  associatedSince: string;
  deactivatedAt: string | null;
  deactivationReason: string | null;
  deactivatedBy: string | null;
}

export interface DeviceRow {
  id: string;
  status: DeviceStatus;
  firstSeen: string | null;
  lastSeen: string | null;
  handprintId: string | null;
  model: string | null;
  osVersion: string | null;
  currentTags: string[];
  registration: Registration | null;
}

export interface AuditRecord {
  id: string;
  action: 'REGISTER' | 'REGISTER_CONFLICT' | 'DEACTIVATE' | 'REACTIVATE' | 'TRANSFER';
  fromUser: string | null;
  toUser: string | null;
  reason: string | null;
  by: string | null;
  actor: { kind: string; id: string; name: string };
  at: string;
}

export interface EventRow {
  id: string;
  name: string;
  identity: string | null;
  deviceId: string | null;
  handprintId: string;
  ip: string | null;
  userAgent: string | null;
  tags: string[];
  riskScore: number;
  properties: Record<string, unknown>;
  occurredAt: string;
}

export interface DeviceDetail extends DeviceRow {
  history: AuditRecord[];
  recentEvents: EventRow[];
}

export interface FacetValue {
  value: string;
  count: number;
}

export interface Facets {
  roles: FacetValue[];
  branches: FacetValue[];
  statuses: FacetValue[];
  tags: FacetValue[];
}

export interface RiskBucket {
  start: string;
  eventCount: number;
  meanScore: number | null;
  tagCounts: { tag: string; count: number }[];
}

export interface Key {
  id: string;
  kind: KeyKind;
  name: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Supervisor {
  id: string;
  username: string;
  role: SupervisorRole;
  createdAt: string;
  disabledAt: string | null;
}

export interface Token {
  id: string;
  name: string;
  username: string;
  displayPrefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Session {
  id: string;
  username: string;
  displayPrefix: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface AccountAuditRecord {
  id: string;
  action: 'CREATE' | 'DISABLE' | 'ENABLE' | 'DELETE' | 'RESET_PASSWORD' | 'SET_ROLE' | 'CREATE_TOKEN' | 'REVOKE_TOKEN' | 'REVOKE_SESSION';
  username: string;
  actor: { kind: string; id: string | null; name: string };
  detail: Record<string, unknown> | null;
  at: string;
}
