// The schema tables only, for drizzle's query builder (`drizzle(client, { schema })`).
export * from './schema/keys.js';
export * from './schema/events.js';
export * from './schema/devices.js';
export * from './schema/handprint-profiles.js';
export * from './schema/registry.js';
export * from './schema/supervisors.js';
export * from './schema/behaviors.js';
export * from './schema/intel.js';
export * from './schema/webhooks.js';
export * from './schema/data-requests.js';
export * from './schema/device-keys.js';
