/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** What an account audit record records. */
export type AccountAction =
  | 'CREATE'
  | 'CREATE_TOKEN'
  | 'DELETE'
  | 'DISABLE'
  | 'ENABLE'
  | 'RESET_PASSWORD'
  | 'REVOKE_SESSION'
  | 'REVOKE_TOKEN'
  | 'ROTATE_TOKEN'
  | 'SET_ROLE';

/** What a registry audit record records. */
export type AuditAction =
  | 'DEACTIVATE'
  | 'REACTIVATE'
  | 'REGISTER'
  | 'REGISTER_CONFLICT'
  | 'TRANSFER';

/** Width of a riskSummary bucket (UTC). */
export type Bucket =
  | 'DAY'
  | 'HOUR';

/** CHANGED: the move was applied; UNCHANGED: the device already was so (nothing written); REFUSED: the registry refused it (e.g. not registered); NOT_FOUND: no such device. */
export type BulkOutcome =
  | 'CHANGED'
  | 'NOT_FOUND'
  | 'REFUSED'
  | 'UNCHANGED';

/** Where a key or token is in its life: ROTATING is replaced but still inside its overlap. */
export type CredentialState =
  | 'ACTIVE'
  | 'EXPIRED'
  | 'REVOKED'
  | 'ROTATING';

export type DeviceFilter = {
  /** Registration metadata branch. */
  branch?: string | null | undefined;
  /** Device ids starting with this text (case-sensitive; % and _ are literal). */
  idPrefix?: string | null | undefined;
  role?: string | null | undefined;
  status?: DeviceStatus | null | undefined;
  /** A tag of the device's latest event. */
  tag?: string | null | undefined;
  userId?: string | null | undefined;
  /** Registered user ids starting with this text (case-sensitive; % and _ are literal). */
  userIdPrefix?: string | null | undefined;
};

/** What deviceStats groups by. TAG: the tags of the device's latest event (a device counts under each; without any, under null). */
export type DeviceGroupKey =
  | 'BRANCH'
  | 'ROLE'
  | 'STATUS'
  | 'TAG';

/** Order of a device listing (ties by id); never-seen devices sort last by last seen and by risk, in both directions. */
export type DeviceSort =
  | 'DEVICE_ID'
  | 'LAST_SEEN_ASC'
  | 'LAST_SEEN_DESC'
  | 'RISK_ASC'
  | 'RISK_DESC';

/** Registry state of a device. */
export type DeviceStatus =
  | 'ACTIVE'
  | 'DEACTIVATED'
  | 'UNREGISTERED';

/** Every field narrows the events; from is inclusive, to exclusive (of the time timeField names). */
export type EventFilter = {
  /** The device's registration metadata.branch when the event was answered. */
  branch?: string | null | undefined;
  deviceId?: string | null | undefined;
  /** Event name. */
  event?: string | null | undefined;
  from?: string | null | undefined;
  handprintId?: string | null | undefined;
  identity?: string | null | undefined;
  /** Inclusive. */
  maxScore?: number | null | undefined;
  /** Inclusive. */
  minScore?: number | null | undefined;
  /** The device's registered role when the event was answered. */
  role?: string | null | undefined;
  tag?: string | null | undefined;
  timeField?: EventTimeField | null | undefined;
  to?: string | null | undefined;
  /** The user the device was registered to when the event was answered. */
  userId?: string | null | undefined;
};

/** What eventStats groups by. TAG: an event counts under each of its tags (an event without tags under null). BRANCH, ROLE, USER: the device's registration when the event was answered. */
export type EventGroupKey =
  | 'BRANCH'
  | 'EVENT'
  | 'ROLE'
  | 'TAG'
  | 'USER';

/** Which time a filter's from/to bound: OCCURRED, the event's own time (an offline event's can be days old); RECEIVED, when Vigil received it. */
export type EventTimeField =
  | 'OCCURRED'
  | 'RECEIVED';

/** WRITE: server-side secret for POST /events; CLIENT: browser and Android libraries. */
export type KeyKind =
  | 'CLIENT'
  | 'WRITE';

/** ADMIN: everything; SUPERVISOR: reads and device changes; VIEWER: reads only. */
export type SupervisorRole =
  | 'ADMIN'
  | 'SUPERVISOR'
  | 'VIEWER';

/** Width of an eventStats time bucket, in its time zone; weeks start on Monday. */
export type TimeBucket =
  | 'DAY'
  | 'HOUR'
  | 'WEEK';

export type WebhookSubscriptionInput = {
  description?: string | null | undefined;
  enabled?: boolean | null | undefined;
  eventTypes?: Array<string> | null | undefined;
  scoreThreshold?: number | null | undefined;
  tags?: Array<string> | null | undefined;
  url?: string | null | undefined;
};

export type RegistrationFieldsFragment = { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null };

export type DeviceFieldsFragment = { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null };

export type EventFieldsFragment = { id: string, name: string, identity: string | null, deviceId: string | null, handprintId: string, ip: string | null, userAgent: string | null, tags: Array<string>, riskScore: number, properties: Record<string, unknown>, occurredAt: string };

export type FacetFieldsFragment = { roles: Array<{ value: string, count: number }>, branches: Array<{ value: string, count: number }>, statuses: Array<{ value: string, count: number }>, tags: Array<{ value: string, count: number }> };

export type KeyFieldsFragment = { id: string, kind: KeyKind, name: string, displayPrefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, expiresAt: string | null, replacedBy: string | null, state: CredentialState };

export type SupervisorFieldsFragment = { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null };

export type BulkResultFieldsFragment = { deviceId: string, outcome: BulkOutcome, message: string, device: { id: string, status: DeviceStatus } | null };

export type ConsoleDevicesQueryVariables = Exact<{
  filter?: DeviceFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  sort?: DeviceSort | null | undefined;
}>;


export type ConsoleDevicesQuery = { devices: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ riskScore: number | null, id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null }> }, facets: { roles: Array<{ value: string, count: number }>, branches: Array<{ value: string, count: number }>, statuses: Array<{ value: string, count: number }>, tags: Array<{ value: string, count: number }> } };

export type ConsoleFacetsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleFacetsQuery = { facets: { roles: Array<{ value: string, count: number }>, branches: Array<{ value: string, count: number }>, statuses: Array<{ value: string, count: number }>, tags: Array<{ value: string, count: number }> } };

export type ConsoleDeviceQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleDeviceQuery = { device: { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, binding: { keyId: string, attestation: string, attestationProblem: string | null, boundAt: string } | null, history: Array<{ id: string, action: AuditAction, fromUser: string | null, toUser: string | null, reason: string | null, by: string | null, at: string, actor: { kind: string, id: string, name: string } }>, recentEvents: Array<{ id: string, name: string, identity: string | null, deviceId: string | null, handprintId: string, ip: string | null, userAgent: string | null, tags: Array<string>, riskScore: number, properties: Record<string, unknown>, occurredAt: string }>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null } | null };

export type ConsoleDeviceStateQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleDeviceStateQuery = { device: { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null } | null };

export type ConsoleDeactivateMutationVariables = Exact<{
  deviceId: string | number;
  reason: string;
  by: string;
}>;


export type ConsoleDeactivateMutation = { deactivateDevice: { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null } };

export type ConsoleReactivateMutationVariables = Exact<{
  deviceId: string | number;
  reason: string;
  by: string;
}>;


export type ConsoleReactivateMutation = { reactivateDevice: { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null } };

export type ConsoleTransferMutationVariables = Exact<{
  deviceId: string | number;
  newUserId: string;
  by: string;
}>;


export type ConsoleTransferMutation = { transferDevice: { id: string, status: DeviceStatus, firstSeen: string | null, lastSeen: string | null, handprintId: string | null, model: string | null, osVersion: string | null, currentTags: Array<string>, registration: { userId: string, role: string | null, branch: string | null, metadata: Record<string, unknown>, status: DeviceStatus, registeredAt: string, associatedSince: string, deactivatedAt: string | null, deactivationReason: string | null, deactivatedBy: string | null } | null } };

export type ConsoleDeactivateManyMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  reason: string;
  by: string;
}>;


export type ConsoleDeactivateManyMutation = { deactivateDevices: Array<{ deviceId: string, outcome: BulkOutcome, message: string, device: { id: string, status: DeviceStatus } | null }> };

export type ConsoleTransferManyMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
  newUserId: string;
  by: string;
}>;


export type ConsoleTransferManyMutation = { transferDevices: Array<{ deviceId: string, outcome: BulkOutcome, message: string, device: { id: string, status: DeviceStatus } | null }> };

export type ConsoleEventsQueryVariables = Exact<{
  filter?: EventFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleEventsQuery = { events: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, name: string, identity: string | null, deviceId: string | null, handprintId: string, ip: string | null, userAgent: string | null, tags: Array<string>, riskScore: number, properties: Record<string, unknown>, occurredAt: string }> } };

export type ConsoleRiskSummaryQueryVariables = Exact<{
  from: string;
  to: string;
  bucket: Bucket;
}>;


export type ConsoleRiskSummaryQuery = { riskSummary: { buckets: Array<{ start: string, eventCount: number, meanScore: number | null, tagCounts: Array<{ tag: string, count: number }> }> } };

export type ConsoleRiskyShareQueryVariables = Exact<{
  from: string;
  threshold: number;
}>;


export type ConsoleRiskyShareQuery = { all: { totalCount: number }, risky: { totalCount: number } };

export type ConsoleEventStatsQueryVariables = Exact<{
  filter?: EventFilter | null | undefined;
  groupBy: Array<EventGroupKey> | EventGroupKey;
  bucket?: TimeBucket | null | undefined;
  timeZone?: string | null | undefined;
}>;


export type ConsoleEventStatsQuery = { eventStats: Array<{ bucket: string | null, tag: string | null, event: string | null, branch: string | null, role: string | null, userId: string | null, count: number, meanScore: number | null, maxScore: number | null, distinctDevices: number }> };

export type ConsoleDeviceStatsQueryVariables = Exact<{
  filter?: DeviceFilter | null | undefined;
  groupBy: Array<DeviceGroupKey> | DeviceGroupKey;
}>;


export type ConsoleDeviceStatsQuery = { deviceStats: Array<{ status: DeviceStatus | null, role: string | null, branch: string | null, tag: string | null, count: number }> };

export type ConsoleEventAddedSubscriptionVariables = Exact<{
  filter?: EventFilter | null | undefined;
}>;


export type ConsoleEventAddedSubscription = { eventAdded: { id: string, name: string, identity: string | null, deviceId: string | null, handprintId: string, ip: string | null, userAgent: string | null, tags: Array<string>, riskScore: number, properties: Record<string, unknown>, occurredAt: string } };

export type ConsoleKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleKeysQuery = { keys: Array<{ id: string, kind: KeyKind, name: string, displayPrefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, expiresAt: string | null, replacedBy: string | null, state: CredentialState }> };

export type ConsoleCreateKeyMutationVariables = Exact<{
  kind: KeyKind;
  name: string;
  expiresInDays?: number | null | undefined;
}>;


export type ConsoleCreateKeyMutation = { createKey: { secret: string, key: { id: string, kind: KeyKind, name: string, displayPrefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, expiresAt: string | null, replacedBy: string | null, state: CredentialState } } };

export type ConsoleRotateKeyMutationVariables = Exact<{
  id: string | number;
  overlapHours?: number | null | undefined;
}>;


export type ConsoleRotateKeyMutation = { rotateKey: { secret: string, key: { id: string, kind: KeyKind, name: string, displayPrefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, expiresAt: string | null, replacedBy: string | null, state: CredentialState }, previous: { id: string, kind: KeyKind, name: string, displayPrefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, expiresAt: string | null, replacedBy: string | null, state: CredentialState } } };

export type ConsoleSecurityTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSecurityTokensQuery = { tokens: Array<{ id: string, name: string, username: string, displayPrefix: string, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, replacedBy: string | null, state: CredentialState }> };

export type ConsoleRotateTokenMutationVariables = Exact<{
  id: string | number;
  overlapHours?: number | null | undefined;
}>;


export type ConsoleRotateTokenMutation = { rotateToken: { id: string, token: string, expiresAt: string | null, previous: { id: string, expiresAt: string | null, state: CredentialState } } };

export type ConsoleRevokeKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleRevokeKeyMutation = { revokeKey: { id: string, revokedAt: string | null } };

export type ConsoleSupervisorsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleSupervisorsQuery = { supervisors: Array<{ id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null }>, tokens: Array<{ id: string, name: string, username: string, displayPrefix: string, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null }>, sessions: Array<{ id: string, username: string, displayPrefix: string, createdAt: string, expiresAt: string, lastUsedAt: string | null, revokedAt: string | null }>, accountAudit: Array<{ id: string, action: AccountAction, username: string, detail: Record<string, unknown> | null, at: string, actor: { kind: string, id: string | null, name: string } }> };

export type ConsoleCreateSupervisorMutationVariables = Exact<{
  username: string;
  role: SupervisorRole;
}>;


export type ConsoleCreateSupervisorMutation = { createSupervisor: { password: string | null, supervisor: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } } };

export type ConsoleCreateTokenMutationVariables = Exact<{
  username: string;
  name: string;
  expiresInDays?: number | null | undefined;
}>;


export type ConsoleCreateTokenMutation = { createToken: { id: string, token: string, expiresAt: string | null } };

export type ConsoleDisableSupervisorMutationVariables = Exact<{
  username: string;
}>;


export type ConsoleDisableSupervisorMutation = { disableSupervisor: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } };

export type ConsoleEnableSupervisorMutationVariables = Exact<{
  username: string;
}>;


export type ConsoleEnableSupervisorMutation = { enableSupervisor: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } };

export type ConsoleDeleteSupervisorMutationVariables = Exact<{
  username: string;
}>;


export type ConsoleDeleteSupervisorMutation = { deleteSupervisor: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } };

export type ConsoleResetSupervisorPasswordMutationVariables = Exact<{
  username: string;
}>;


export type ConsoleResetSupervisorPasswordMutation = { resetSupervisorPassword: { password: string, sessionsRevoked: number, supervisor: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } } };

export type ConsoleSetSupervisorRoleMutationVariables = Exact<{
  username: string;
  role: SupervisorRole;
}>;


export type ConsoleSetSupervisorRoleMutation = { setSupervisorRole: { id: string, username: string, role: SupervisorRole, createdAt: string, disabledAt: string | null } };

export type ConsoleRevokeSessionMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleRevokeSessionMutation = { revokeSession: { id: string, revokedAt: string | null } };

export type ConsoleRevokeTokenMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleRevokeTokenMutation = { revokeToken: { id: string, revokedAt: string | null } };

export type ConsoleWebhooksQueryVariables = Exact<{
  subscriptionId?: string | number | null | undefined;
  status?: string | null | undefined;
}>;


export type ConsoleWebhooksQuery = { webhookEventTypes: Array<string>, webhookSubscriptions: Array<{ id: string, url: string, description: string, eventTypes: Array<string>, tags: Array<string>, scoreThreshold: number | null, enabled: boolean, disabledReason: string | null, createdAt: string }>, webhookMessages: Array<{ id: string, subscriptionId: string, type: string, status: string, attempts: number, lastStatus: number | null, nextAttemptAt: string, createdAt: string, deliveredAt: string | null }> };

export type ConsoleWebhookAttemptsQueryVariables = Exact<{
  messageId: string | number;
}>;


export type ConsoleWebhookAttemptsQuery = { webhookAttempts: Array<{ id: string, attempt: number, status: number | null, durationMs: number, error: string | null, trigger: string, at: string }> };

export type ConsoleCreateWebhookSubscriptionMutationVariables = Exact<{
  input: WebhookSubscriptionInput;
}>;


export type ConsoleCreateWebhookSubscriptionMutation = { createWebhookSubscription: { secret: string, subscription: { id: string } } };

export type ConsoleUpdateWebhookSubscriptionMutationVariables = Exact<{
  id: string | number;
  input: WebhookSubscriptionInput;
}>;


export type ConsoleUpdateWebhookSubscriptionMutation = { updateWebhookSubscription: { id: string, enabled: boolean } };

export type ConsoleDeleteWebhookSubscriptionMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleDeleteWebhookSubscriptionMutation = { deleteWebhookSubscription: { id: string } };

export type ConsoleRedeliverWebhookMessageMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleRedeliverWebhookMessageMutation = { redeliverWebhookMessage: { status: number | null, durationMs: number, error: string | null } };
