import { devices, registrations } from '@vigil/drizzle/schema';
import type { TestVigil } from './harness.js';

export interface DeviceFixture {
  deviceId: string;
  role: string;
  branch: string;
  status: 'active' | 'deactivated';
  userId: string;
  lastSeen: Date | null;
}

const roles = ['teller', 'agent', 'field', 'manager'];
const branches = ['north', 'south', 'east', 'west', 'central'];

/** A deterministic spread of roles, branches, statuses, users and sightings over `n` devices. */
export function deviceFixtures(n: number, prefix = 'bulk'): DeviceFixture[] {
  return Array.from({ length: n }, (_, i) => ({
    deviceId: `${prefix}-${String(i).padStart(4, '0')}`,
    role: roles[i % roles.length]!,
    branch: branches[(i * 7) % branches.length]!,
    status: i % 10 === 3 ? 'deactivated' : 'active',
    userId: `user-${i % 97}`,
    lastSeen: i % 4 === 0 ? null : new Date(Date.UTC(2025, 0, 1) + ((i * 7919) % n) * 60_000),
  }));
}

/** Writes registrations and sightings in bulk: suites using this are about reading them back. */
export async function seedDevices(server: TestVigil, fixtures: DeviceFixture[]): Promise<void> {
  const at = new Date(Date.UTC(2024, 11, 1));
  for (let i = 0; i < fixtures.length; i += 250) {
    const chunk = fixtures.slice(i, i + 250);
    await server.database.db.insert(registrations).values(
      chunk.map((f) => ({
        deviceId: f.deviceId,
        userId: f.userId,
        role: f.role,
        metadata: { role: f.role, branch: f.branch },
        status: f.status,
        registeredAt: at,
        associatedSince: at,
        updatedAt: at,
        deactivatedAt: f.status === 'deactivated' ? at : null,
        deactivationReason: f.status === 'deactivated' ? 'bulk' : null,
      })),
    );
    const seen = chunk.filter((f) => f.lastSeen);
    if (seen.length > 0) {
      await server.database.db
        .insert(devices)
        .values(seen.map((f) => ({ id: `dev_${f.deviceId}`, deviceId: f.deviceId, firstSeen: f.lastSeen!, lastSeen: f.lastSeen! })));
    }
  }
}
