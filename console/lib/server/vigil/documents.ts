/**
 * Every GraphQL operation the console sends, in one place so a test can check them against the server's
 * checked-in schema (server/schema.graphql).
 */

const registration = `registration { userId role branch metadata status registeredAt associatedSince deactivatedAt deactivationReason deactivatedBy }`;
const device = `id status firstSeen lastSeen handprintId model osVersion currentTags ${registration}`;
const event = `id name identity deviceId handprintId ip userAgent tags riskScore properties occurredAt`;
const facets = `facets { roles { value count } branches { value count } statuses { value count } tags { value count } }`;
const key = `id kind name displayPrefix createdAt lastUsedAt revokedAt`;

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
    supervisors { id username role createdAt }
    tokens { id name username displayPrefix createdAt lastUsedAt revokedAt }
  }`,
  createSupervisor: `mutation ConsoleCreateSupervisor($username: String!, $role: SupervisorRole!) {
    createSupervisor(username: $username, role: $role) { password supervisor { id username role createdAt } }
  }`,
  createToken: `mutation ConsoleCreateToken($username: String!, $name: String!) { createToken(username: $username, name: $name) { id token } }`,
  revokeToken: `mutation ConsoleRevokeToken($id: ID!) { revokeToken(id: $id) { id revokedAt } }`,
} as const;
