import type autocannon from 'autocannon';

/** Realistic event bodies: a mix of logins and transfers over a population of users and devices. */
export function eventBody(n: number): string {
  const user = n % 5000;
  const transfer = n % 3 === 0;
  return JSON.stringify({
    event: transfer ? 'transfer' : 'login',
    identity: `user${user}@example.com`,
    properties: {
      event_id: `bench-${process.pid}-${n}`,
      device_id: `device-${user % 4000}`,
      ip_address: `203.0.${(user >> 8) & 255}.${user & 255}`,
      user_agent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      session_id: `s-${user}-${n % 7}`,
      ...(transfer ? { amount: (n % 977) + 0.5, currency: 'EUR', recipient: `acct-${n % 1234}`, transaction_type: 'p2p' } : {}),
      device_model: 'Pixel 8',
      os_version: '14',
    },
  });
}

/** autocannon's options for POSTing these bodies to /events with `key`, each numbered by `next()`. */
export function postEvents(key: string, next: () => number): Pick<autocannon.Options, 'method' | 'headers' | 'requests'> {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: eventBody(next()) }) }],
  };
}
