/**
 * Every GraphQL operation the console sends, in one place: graphql-codegen reads them (each is marked
 * GraphQL for its tag plucker) to type their answers in generated.ts, and a test checks them against the schema.
 * Fragments are written once and appended to each operation that spreads them.
 */

const fragments: Record<string, string> = {
  RegistrationFields: /* GraphQL */ `
    fragment RegistrationFields on Registration {
      userId role branch metadata status registeredAt associatedSince deactivatedAt deactivationReason deactivatedBy
    }`,
  DeviceFields: /* GraphQL */ `
    fragment DeviceFields on Device {
      id status firstSeen lastSeen handprintId model osVersion currentTags registration { ...RegistrationFields }
    }`,
  EventFields: /* GraphQL */ `
    fragment EventFields on Event {
      id name identity deviceId handprintId ip userAgent tags riskScore properties occurredAt
    }`,
  FacetFields: /* GraphQL */ `
    fragment FacetFields on Facets {
      roles { value count } branches { value count } statuses { value count } tags { value count }
    }`,
  KeyFields: /* GraphQL */ `
    fragment KeyFields on Key { id kind name displayPrefix createdAt lastUsedAt revokedAt expiresAt replacedBy state }`,
  SupervisorFields: /* GraphQL */ `
    fragment SupervisorFields on Supervisor { id username role createdAt disabledAt }`,
  BulkResultFields: /* GraphQL */ `
    fragment BulkResultFields on BulkDeviceResult { deviceId outcome message device { id status } }`,
};

/** The operation with every fragment it uses, directly or through another fragment. */
function withFragments(operation: string): string {
  const used = new Set<string>();
  const visit = (text: string) => {
    for (const [, name] of text.matchAll(/\.\.\.([A-Za-z_]\w*)/g)) {
      if (!name || used.has(name) || !fragments[name]) continue;
      used.add(name);
      visit(fragments[name]);
    }
  };
  visit(operation);
  return [operation, ...[...used].map((n) => fragments[n])].join('\n');
}

const operations = {
  devices: /* GraphQL */ `
    query ConsoleDevices($filter: DeviceFilter, $first: Int, $after: String, $sort: DeviceSort) {
      devices(filter: $filter, first: $first, after: $after, sort: $sort) {
        totalCount pageInfo { hasNextPage endCursor } nodes { ...DeviceFields riskScore }
      }
      facets { ...FacetFields }
    }`,
  facets: /* GraphQL */ `query ConsoleFacets { facets { ...FacetFields } }`,
  device: /* GraphQL */ `
    query ConsoleDevice($id: ID!) {
      device(id: $id) {
        ...DeviceFields
        binding { keyId attestation attestationProblem boundAt }
        history(first: 100) { id action fromUser toUser reason by actor { kind id name } at }
        recentEvents(first: 100) { ...EventFields }
      }
    }`,
  /** A device's registry state alone, read before a change so the feedback can say what the change did. */
  deviceState: /* GraphQL */ `query ConsoleDeviceState($id: ID!) { device(id: $id) { ...DeviceFields } }`,
  deactivate: /* GraphQL */ `
    mutation ConsoleDeactivate($deviceId: ID!, $reason: String!, $by: String!) {
      deactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) { ...DeviceFields }
    }`,
  reactivate: /* GraphQL */ `
    mutation ConsoleReactivate($deviceId: ID!, $reason: String!, $by: String!) {
      reactivateDevice(deviceId: $deviceId, reason: $reason, by: $by) { ...DeviceFields }
    }`,
  transfer: /* GraphQL */ `
    mutation ConsoleTransfer($deviceId: ID!, $newUserId: String!, $by: String!) {
      transferDevice(deviceId: $deviceId, newUserId: $newUserId, by: $by) { ...DeviceFields }
    }`,
  deactivateMany: /* GraphQL */ `
    mutation ConsoleDeactivateMany($ids: [ID!]!, $reason: String!, $by: String!) {
      deactivateDevices(ids: $ids, reason: $reason, by: $by) { ...BulkResultFields }
    }`,
  transferMany: /* GraphQL */ `
    mutation ConsoleTransferMany($ids: [ID!]!, $newUserId: String!, $by: String!) {
      transferDevices(ids: $ids, newUserId: $newUserId, by: $by) { ...BulkResultFields }
    }`,
  events: /* GraphQL */ `
    query ConsoleEvents($filter: EventFilter, $first: Int, $after: String) {
      events(filter: $filter, first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { ...EventFields } }
    }`,
  riskSummary: /* GraphQL */ `
    query ConsoleRiskSummary($from: DateTimeISO!, $to: DateTimeISO!, $bucket: Bucket!) {
      riskSummary(from: $from, to: $to, bucket: $bucket) { buckets { start eventCount meanScore tagCounts { tag count } } }
    }`,
  riskyShare: /* GraphQL */ `
    query ConsoleRiskyShare($from: DateTimeISO!, $threshold: Float!) {
      all: events(filter: { from: $from }, first: 1) { totalCount }
      risky: events(filter: { from: $from, minScore: $threshold }, first: 1) { totalCount }
    }`,
  eventStats: /* GraphQL */ `
    query ConsoleEventStats($filter: EventFilter, $groupBy: [EventGroupKey!]!, $bucket: TimeBucket, $timeZone: String) {
      eventStats(filter: $filter, groupBy: $groupBy, bucket: $bucket, timeZone: $timeZone) {
        bucket tag event branch role userId count meanScore maxScore distinctDevices
      }
    }`,
  deviceStats: /* GraphQL */ `
    query ConsoleDeviceStats($filter: DeviceFilter, $groupBy: [DeviceGroupKey!]!) {
      deviceStats(filter: $filter, groupBy: $groupBy) { status role branch tag count }
    }`,
  eventAdded: /* GraphQL */ `
    subscription ConsoleEventAdded($filter: EventFilter) { eventAdded(filter: $filter) { ...EventFields } }`,
  keys: /* GraphQL */ `query ConsoleKeys { keys { ...KeyFields } }`,
  createKey: /* GraphQL */ `
    mutation ConsoleCreateKey($kind: KeyKind!, $name: String!, $expiresInDays: Int) {
      createKey(kind: $kind, name: $name, expiresInDays: $expiresInDays) { secret key { ...KeyFields } }
    }`,
  rotateKey: /* GraphQL */ `
    mutation ConsoleRotateKey($id: ID!, $overlapHours: Float) {
      rotateKey(id: $id, overlapHours: $overlapHours) { secret key { ...KeyFields } previous { ...KeyFields } }
    }`,
  securityTokens: /* GraphQL */ `
    query ConsoleSecurityTokens { tokens { id name username displayPrefix createdAt expiresAt lastUsedAt revokedAt replacedBy state } }`,
  rotateToken: /* GraphQL */ `
    mutation ConsoleRotateToken($id: ID!, $overlapHours: Float) {
      rotateToken(id: $id, overlapHours: $overlapHours) { id token expiresAt previous { id expiresAt state } }
    }`,
  revokeKey: /* GraphQL */ `mutation ConsoleRevokeKey($id: ID!) { revokeKey(id: $id) { id revokedAt } }`,
  supervisors: /* GraphQL */ `
    query ConsoleSupervisors {
      supervisors { ...SupervisorFields }
      tokens { id name username displayPrefix createdAt expiresAt lastUsedAt revokedAt }
      sessions(active: true) { id username displayPrefix createdAt expiresAt lastUsedAt revokedAt }
      accountAudit(first: 50) { id action username actor { kind id name } detail at }
    }`,
  createSupervisor: /* GraphQL */ `
    mutation ConsoleCreateSupervisor($username: String!, $role: SupervisorRole!) {
      createSupervisor(username: $username, role: $role) { password supervisor { ...SupervisorFields } }
    }`,
  createToken: /* GraphQL */ `
    mutation ConsoleCreateToken($username: String!, $name: String!, $expiresInDays: Int) {
      createToken(username: $username, name: $name, expiresInDays: $expiresInDays) { id token expiresAt }
    }`,
  disableSupervisor: /* GraphQL */ `
    mutation ConsoleDisableSupervisor($username: String!) { disableSupervisor(username: $username) { ...SupervisorFields } }`,
  enableSupervisor: /* GraphQL */ `
    mutation ConsoleEnableSupervisor($username: String!) { enableSupervisor(username: $username) { ...SupervisorFields } }`,
  deleteSupervisor: /* GraphQL */ `
    mutation ConsoleDeleteSupervisor($username: String!) { deleteSupervisor(username: $username) { ...SupervisorFields } }`,
  resetSupervisorPassword: /* GraphQL */ `
    mutation ConsoleResetSupervisorPassword($username: String!) {
      resetSupervisorPassword(username: $username) { password sessionsRevoked supervisor { ...SupervisorFields } }
    }`,
  setSupervisorRole: /* GraphQL */ `
    mutation ConsoleSetSupervisorRole($username: String!, $role: SupervisorRole!) {
      setSupervisorRole(username: $username, role: $role) { ...SupervisorFields }
    }`,
  revokeSession: /* GraphQL */ `mutation ConsoleRevokeSession($id: ID!) { revokeSession(id: $id) { id revokedAt } }`,
  revokeToken: /* GraphQL */ `mutation ConsoleRevokeToken($id: ID!) { revokeToken(id: $id) { id revokedAt } }`,
  webhooks: /* GraphQL */ `
    query ConsoleWebhooks($subscriptionId: ID, $status: String) {
      webhookEventTypes
      webhookSubscriptions { id url description eventTypes tags scoreThreshold enabled disabledReason createdAt }
      webhookMessages(subscriptionId: $subscriptionId, status: $status, limit: 100) {
        id subscriptionId type status attempts lastStatus nextAttemptAt createdAt deliveredAt
      }
    }`,
  webhookAttempts: /* GraphQL */ `
    query ConsoleWebhookAttempts($messageId: ID!) { webhookAttempts(messageId: $messageId) { id attempt status durationMs error trigger at } }`,
  createWebhookSubscription: /* GraphQL */ `
    mutation ConsoleCreateWebhookSubscription($input: WebhookSubscriptionInput!) {
      createWebhookSubscription(input: $input) { secret subscription { id } }
    }`,
  updateWebhookSubscription: /* GraphQL */ `
    mutation ConsoleUpdateWebhookSubscription($id: ID!, $input: WebhookSubscriptionInput!) {
      updateWebhookSubscription(id: $id, input: $input) { id enabled }
    }`,
  deleteWebhookSubscription: /* GraphQL */ `mutation ConsoleDeleteWebhookSubscription($id: ID!) { deleteWebhookSubscription(id: $id) { id } }`,
  redeliverWebhookMessage: /* GraphQL */ `
    mutation ConsoleRedeliverWebhookMessage($id: ID!) { redeliverWebhookMessage(id: $id) { status durationMs error } }`,
};

export type OperationName = keyof typeof operations;

export const documents = Object.fromEntries(Object.entries(operations).map(([k, v]) => [k, withFragments(v)])) as Record<OperationName, string>;
