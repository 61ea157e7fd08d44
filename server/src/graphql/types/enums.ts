import { registerEnumType } from 'type-graphql';

/** GraphQL enums are upper case; values map onto the REST strings. */
export enum DeviceStatusEnum {
  UNREGISTERED = 'unregistered',
  ACTIVE = 'active',
  DEACTIVATED = 'deactivated',
}
registerEnumType(DeviceStatusEnum, { name: 'DeviceStatus', description: 'Registry state of a device.' });

export enum DeviceSortEnum {
  DEVICE_ID = 'device_id',
  LAST_SEEN_DESC = 'last_seen',
  LAST_SEEN_ASC = 'last_seen_asc',
  RISK_DESC = 'risk_desc',
  RISK_ASC = 'risk_asc',
}
registerEnumType(DeviceSortEnum, {
  name: 'DeviceSort',
  description: 'Order of a device listing (ties by id); never-seen devices sort last by last seen and by risk, in both directions.',
});

export enum BulkOutcomeEnum {
  CHANGED = 'changed',
  UNCHANGED = 'unchanged',
  REFUSED = 'refused',
  NOT_FOUND = 'not_found',
}
registerEnumType(BulkOutcomeEnum, {
  name: 'BulkOutcome',
  description:
    'CHANGED: the move was applied; UNCHANGED: the device already was so (nothing written); REFUSED: the registry refused it (e.g. not registered); NOT_FOUND: no such device.',
});

export enum BucketEnum {
  HOUR = 'hour',
  DAY = 'day',
}
registerEnumType(BucketEnum, { name: 'Bucket', description: 'Width of a riskSummary bucket (UTC).' });

export enum SupervisorRoleEnum {
  ADMIN = 'admin',
  SUPERVISOR = 'supervisor',
  VIEWER = 'viewer',
}
registerEnumType(SupervisorRoleEnum, {
  name: 'SupervisorRole',
  description: 'ADMIN: everything; SUPERVISOR: reads and device changes; VIEWER: reads only.',
});

export enum KeyKindEnum {
  WRITE = 'write',
  CLIENT = 'client',
}
registerEnumType(KeyKindEnum, { name: 'KeyKind', description: 'WRITE: server-side secret for POST /events; CLIENT: browser and Android libraries.' });

export enum AuditActionEnum {
  REGISTER = 'register',
  REGISTER_CONFLICT = 'register_conflict',
  DEACTIVATE = 'deactivate',
  REACTIVATE = 'reactivate',
  TRANSFER = 'transfer',
}
registerEnumType(AuditActionEnum, { name: 'AuditAction', description: 'What a registry audit record records.' });

export enum AccountActionEnum {
  CREATE = 'create',
  DISABLE = 'disable',
  ENABLE = 'enable',
  DELETE = 'delete',
  RESET_PASSWORD = 'reset_password',
  SET_ROLE = 'set_role',
  CREATE_TOKEN = 'create_token',
  REVOKE_TOKEN = 'revoke_token',
  REVOKE_SESSION = 'revoke_session',
  ROTATE_TOKEN = 'rotate_token',
}
registerEnumType(AccountActionEnum, { name: 'AccountAction', description: 'What an account audit record records.' });

export enum CredentialStateEnum {
  ACTIVE = 'active',
  ROTATING = 'rotating',
  EXPIRED = 'expired',
  REVOKED = 'revoked',
}
registerEnumType(CredentialStateEnum, {
  name: 'CredentialState',
  description: 'Where a key or token is in its life: ROTATING is replaced but still inside its overlap.',
});
