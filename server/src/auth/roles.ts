/** Supervisor roles, least to most powerful. */
export const supervisorRoles = ['viewer', 'supervisor', 'admin'] as const;
export type SupervisorRole = (typeof supervisorRoles)[number];

/**
 * What each role may do. viewer: read; supervisor: read and change devices; admin: also manage keys, supervisors
 * and tokens.
 */
export type Permission = 'read' | 'manage_devices' | 'admin';

const minimum: Record<Permission, SupervisorRole> = { read: 'viewer', manage_devices: 'supervisor', admin: 'admin' };

export function allows(role: SupervisorRole, permission: Permission): boolean {
  return supervisorRoles.indexOf(role) >= supervisorRoles.indexOf(minimum[permission]);
}

export const isSupervisorRole = (value: unknown): value is SupervisorRole =>
  typeof value === 'string' && (supervisorRoles as readonly string[]).includes(value);
