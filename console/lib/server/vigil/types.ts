/**
 * The console's names for the types graphql-codegen generates from server/schema.graphql and the operations in
 * documents.ts (generated.ts); nothing here is written by hand, so an API change shows up as a type error.
 */
import type * as G from './generated';

export type { AuditAction, BulkOutcome, DeviceGroupKey, DeviceSort, DeviceStatus, EventGroupKey, KeyKind, SupervisorRole, TimeBucket } from './generated';
export type Bucket = G.Bucket;
export type DeviceRow = G.ConsoleDevicesQuery['devices']['nodes'][number];
export type DeviceDetail = NonNullable<G.ConsoleDeviceQuery['device']>;
export type AuditRecord = DeviceDetail['history'][number];
export type EventRow = G.EventFieldsFragment;
export type Facets = G.FacetFieldsFragment;
export type FacetValue = Facets['roles'][number];
export type RiskBucket = G.ConsoleRiskSummaryQuery['riskSummary']['buckets'][number];
export type Supervisor = G.SupervisorFieldsFragment;
export type AccountAuditRecord = G.ConsoleSupervisorsQuery['accountAudit'][number];
export type BulkResult = G.BulkResultFieldsFragment;
export type EventStatsRow = G.ConsoleEventStatsQuery['eventStats'][number];
export type DeviceStatsRow = G.ConsoleDeviceStatsQuery['deviceStats'][number];
export type { G as Generated };
export type Key = G.KeyFieldsFragment;
export type SecurityToken = G.ConsoleSecurityTokensQuery['tokens'][number];
export type Token = G.ConsoleSupervisorsQuery['tokens'][number];
export type Session = G.ConsoleSupervisorsQuery['sessions'][number];
