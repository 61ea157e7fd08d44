import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generatedSecrets } from '@vigil/drizzle/schema';
import type { KeyRing, SigningKey } from '../handprint/token/types.js';
import type { Env } from '../config/env.js';
import type { DatabaseHandle } from '../db/handle.js';

export interface BrowserSecrets {
  keys: KeyRing;
  salt: string;
  /** Where each came from, for the start-up log (never the values). */
  sources: { keys: 'config' | 'generated'; salt: 'config' | 'generated' };
}

const TOKEN_KEY = 'browser_token_key';
const SALT = 'handprint_salt';

/**
 * The browser_token keys and the handprint salt. Configured values win; otherwise Vigil generates them once and
 * keeps them in the database, so restarts and every process on the same database accept each other's tokens and
 * compute the same handprint ids. When keys are configured later, the generated key still verifies (as a previous
 * key) so tokens issued before the change stay valid until they expire.
 */
export async function loadBrowserSecrets(env: Env, database: DatabaseHandle): Promise<BrowserSecrets> {
  const configured = env.VIGIL_JS_TOKEN_SECRETS;
  let keys: KeyRing;
  if (configured && configured.length > 0) {
    const generated = await readSecret(database, TOKEN_KEY);
    const previous: SigningKey[] = configured.slice(1).map((k) => ({ kid: k.kid, secret: k.secret }));
    const stored = generated ? parseKey(generated) : null;
    if (stored && !configured.some((k) => k.kid === stored.kid)) previous.push(stored);
    keys = { current: { kid: configured[0]!.kid, secret: configured[0]!.secret }, ...(previous.length ? { previous } : {}) };
  } else {
    const value = await generateOnce(database, TOKEN_KEY, () =>
      JSON.stringify({ kid: `g${randomBytes(4).toString('hex')}`, secret: randomBytes(32).toString('base64url') }),
    );
    keys = { current: parseKey(value) };
  }
  const salt =
    env.VIGIL_HANDPRINT_SALT ?? (JSON.parse(await generateOnce(database, SALT, () => JSON.stringify(randomBytes(32).toString('base64url')))) as string);
  return {
    keys,
    salt,
    sources: { keys: configured?.length ? 'config' : 'generated', salt: env.VIGIL_HANDPRINT_SALT ? 'config' : 'generated' },
  };
}

function parseKey(value: string): SigningKey {
  const parsed = JSON.parse(value) as { kid: string; secret: string };
  return { kid: parsed.kid, secret: Buffer.from(parsed.secret, 'base64url') };
}

async function readSecret(database: DatabaseHandle, name: string): Promise<string | null> {
  const [row] = await database.db.select({ value: generatedSecrets.value }).from(generatedSecrets).where(eq(generatedSecrets.name, name)).limit(1);
  return row?.value ?? null;
}

/** Insert-if-absent, then read back: two processes starting together on one database end up with the same value. */
export async function generateOnce(database: DatabaseHandle, name: string, make: () => string): Promise<string> {
  const existing = await readSecret(database, name);
  if (existing !== null) return existing;
  await database.db.insert(generatedSecrets).values({ name, value: make() }).onConflictDoNothing();
  const value = await readSecret(database, name);
  if (value === null) throw new Error(`generated secret ${name} could not be stored`);
  return value;
}
