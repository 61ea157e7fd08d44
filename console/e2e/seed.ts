/**
 * Seeds a real Vigil server through its device-side and event routes, as the Android library and a backend would:
 * registrations with a client key, then events (some with emulator or root evidence) with a write key.
 */
export const ROLES = ['teller', 'agent', 'field', 'manager'] as const;
export const BRANCHES = ['north', 'south', 'east', 'west', 'central'] as const;

export interface SeededDevice {
  id: string;
  userId: string;
  role: string;
  branch: string;
}

export interface Seed {
  devices: SeededDevice[];
  unregistered: string[];
  events: number;
}

const pad = (n: number) => String(n).padStart(5, '0');

async function post(url: string, key: string, body: unknown): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 503 || attempt >= 3) return response;
    await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
  }
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function seed(api: string, keys: { client: string; write: string }, count: number): Promise<Seed> {
  const devices: SeededDevice[] = Array.from({ length: count }, (_, i) => ({
    id: `dev-${pad(i + 1)}`,
    userId: `user-${pad((i % Math.floor(count * 0.8)) + 1)}`,
    role: ROLES[i % ROLES.length]!,
    branch: BRANCHES[Math.floor(i / ROLES.length) % BRANCHES.length]!,
  }));
  await inParallel(devices, 16, async (d) => {
    const response = await post(`${api}/devices/${d.id}/register`, keys.client, {
      user_id: d.userId,
      metadata: { role: d.role, branch: d.branch, model: 'Pixel 8', app_version: '4.2.0' },
    });
    if (response.status !== 200) throw new Error(`register ${d.id}: ${response.status} ${await response.text()}`);
  });

  // Events over the last 24 hours: every registered device once, every fifth one more, plus unregistered devices.
  const unregistered = Array.from({ length: Math.ceil(count / 20) }, (_, i) => `web-${pad(i + 1)}`);
  const now = Date.now();
  const events: Record<string, unknown>[] = [];
  const evidence = (i: number) =>
    i % 23 === 0
      ? { version: 1, platform: 'android', emulator: { evidence: ['build.hardware=goldfish'] } }
      : i % 37 === 0
        ? { version: 1, platform: 'android', root: { evidence: ['su:/system/bin/su'] } }
        : undefined;
  const push = (deviceId: string, identity: string, i: number) => {
    const signals = evidence(i);
    events.push({
      event: ['login', 'transfer', 'payment', 'view'][i % 4],
      identity,
      properties: {
        device_id: deviceId,
        ip_address: `198.51.100.${(i % 250) + 1}`,
        user_agent: 'VigilApp/4.2.0 (Android 14)',
        timestamp: new Date(now - ((i * 7919) % (23 * 3600)) * 1000 - 60_000).toISOString(),
        ...(signals ? { device_signals: signals } : {}),
        amount: (i % 50) * 10,
      },
    });
  };
  devices.forEach((d, i) => {
    push(d.id, d.userId, i);
    if (i % 5 === 0) push(d.id, d.userId, i + count);
    // A few devices with a longer history, so their risk-over-time chart has something to show.
    if (i < 12) for (const k of [23, 1, 37, 2, 46, 3, 4, 69]) push(d.id, d.userId, k * (i + 1) * 1001);
  });
  unregistered.forEach((id, i) => push(id, `guest-${i}`, i + 3 * count));

  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < events.length; i += 100) batches.push(events.slice(i, i + 100));
  await inParallel(batches, 4, async (batch) => {
    const response = await post(`${api}/events/batch`, keys.write, { events: batch });
    if (response.status !== 200) throw new Error(`events/batch: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { results: { status: number; error?: unknown }[] };
    const failed = body.results.find((r) => r.status !== 200);
    if (failed) throw new Error(`an event was refused: ${JSON.stringify(failed)}`);
  });
  return { devices, unregistered, events: events.length };
}
