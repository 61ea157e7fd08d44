/**
 * Every GraphQL operation the console sends, in one place so a test can check them against the server's
 * checked-in schema (server/schema.graphql).
 */

const registration = `registration { userId role branch metadata status registeredAt associatedSince deactivatedAt deactivationReason deactivatedBy }`;
const device = `id status firstSeen lastSeen handprintId model osVersion currentTags ${registration}`;
const event = `id name identity deviceId handprintId ip userAgent tags riskScore properties occurredAt`;
const facets = `facets { roles { value count } branches { value count } statuses { value count } tags { value count } }`;
const key = `id kind name displayPrefix createdAt lastUsedAt revokedAt`;
const supervisor = `id username role createdAt disabledAt`;

export const documents = {
  devices: `query ConsoleDevices($filter: DeviceFilter, $first: Int, $after: String) {
    devices(filter: $filter, first: $first, after: $after, sort: LAST_SEEN_DESC) {
      totalCount pageInfo { hasNextPage endCursor } nodes { ${device} }
    }
    ${facets}
  }`,
  facets: `query ConsoleFacets { ${facets} }`,
  device: `query ConsoleDevice($id: ID!) {
    device(id: $id) {
      ${device}
      history(first: 100) { id action fromUser toUser reason by actor { kind id name } at }
      recentEvents(first: 100) { ${event} }
    }
  }`,
  deactivate: `mutation ConsoleDeactivate($deviceId: ID!, $reason: String!, $by: String!) {
    deactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) { id status }
  }`,
  reactivate: `mutation ConsoleReactivate($deviceId: ID!, $reason: String!, $by: String!) {
    reactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) { id status }
  }`,
  transfer: `mutation ConsoleTransfer($deviceId: ID!, $newUserId: String!, $by: String!) {
    transferDevice(deviceId: $deviceId, newUserId: $newUserId, by: $by) { id status }
  }`,
  events: `query ConsoleEvents($filter: EventFilter, $first: Int, $after: String) {
    events(filter: $filter, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { ${event} } }
  }`,
  riskSummary: `query ConsoleRiskSummary($from: DateTimeISO!, $to: DateTimeISO!, $bucket: Bucket!) {
    riskSummary(from: $from, to: $to, bucket: $bucket) { buckets { start eventCount meanScore tagCounts { tag count } } }
  }`,
  riskyShare: `query ConsoleRiskyShare($from: DateTimeISO!, $threshold: Float!) {
    all: events(filter: { from: $from }, first: 1) { totalCount }
    risky: events(filter: { from: $from, minScore: $threshold }, first: 1) { totalCount }
  }`,
  keys: `query ConsoleKeys { keys { ${key} } }`,
  createKey: `mutation ConsoleCreateKey($kind: KeyKind!, $name: String!) { createKey(kind: $kind, name: $name) { secret key { ${key} } } }`,
  revokeKey: `mutation ConsoleRevokeKey($id: ID!) { revokeKey(id: $id) { id revokedAt } }`,
  supervisors: `query ConsoleSupervisors {
    supervisors { ${supervisor} }
    tokens { id name username displayPrefix createdAt expiresAt lastUsedAt revokedAt }
    sessions(active: true) { id username displayPrefix createdAt expiresAt lastUsedAt revokedAt }
    accountAudit(first: 50) { id action username actor { kind id name } detail at }
  }`,
  createSupervisor: `mutation ConsoleCreateSupervisor($username: String!, $role: SupervisorRole!) {
    createSupervisor(username: $username, role: $role) { password supervisor { ${supervisor} } }
  }`,
  createToken: `mutation ConsoleCreateToken($username: String!, $name: String!, $expiresInDays: Int) {
    createToken(username: $username, name: $name, expiresInDays: $expiresInDays) { id token expiresAt }
  }`,
  disableSupervisor: `mutation ConsoleDisableSupervisor($username: String!) { disableSupervisor(username: $username) { ${supervisor} } }`,
  enableSupervisor: `mutation ConsoleEnableSupervisor($username: String!) { enableSupervisor(username: $username) { ${supervisor} } }`,
  deleteSupervisor: `mutation ConsoleDeleteSupervisor($username: String!) { deleteSupervisor(username: $username) { ${supervisor} } }`,
  resetSupervisorPassword: `mutation ConsoleResetSupervisorPassword($username: String!) {
    resetSupervisorPassword(username: $username) { password sessionsRevoked supervisor { ${supervisor} } }
  }`,
  setSupervisorRole: `mutation ConsoleSetSupervisorRole($username: String!, $role: SupervisorRole!) {
    setSupervisorRole(username: $username, role: $role) { ${supervisor} }
  }`,
  revokeSession: `mutation ConsoleRevokeSession($id: ID!) { revokeSession(id: $id) { id revokedAt } }`,
  revokeToken: `mutation ConsoleRevokeToken($id: ID!) { revokeToken(id: $id) { id revokedAt } }`,
} as const;
