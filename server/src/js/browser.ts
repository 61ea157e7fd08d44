import { randomBytes } from 'node:crypto';
import { apiKeys } from '@vigil/drizzle/schema';
import { z } from 'zod';
import type { Env } from '../config/env.js';
import type { DatabaseHandle } from '../db/handle.js';
import { VigilError, validationError } from '../errors.js';
import type { NormalizedEvent } from '../pipeline/event.js';
import { storableTree } from '../db/storable.js';
import { applyBrowserToken } from '../handprint/backend-link.js';
import { readCollection, resolveCollection, type CollectResponseBody } from './collect.js';
import type { CorsPolicy } from './cors.js';
import { DbHandprintProfiles } from '../handprint/profile-store.js';
import { DbReplayCounter } from '../handprint/replay-counter.js';
import { loadBrowserSecrets, type BrowserSecrets } from './secrets.js';

/**
 * Browser events sent without a client key are stored under this key row (events need a key for idempotency
 * scope). Its hash is not a SHA-256 hex string, so no presented key can ever authenticate as it.
 */
export const PAGES_KEY = { id: 'key_js_pages', hash: 'internal:js-pages', name: 'browser pages without a client key (/js/events)' };

/** A validated collection nests at most ~20 levels (component values up to 16); the key count is bounded by the body limit. */
const storableReading = z.unknown().superRefine(storableTree({ maxDepth: 32, maxKeys: Number.POSITIVE_INFINITY }));

/** Everything the /js routes and the browser_token link need, built once per Vigil. */
export class BrowserSupport {
  readonly profiles: DbHandprintProfiles;
  readonly replay: DbReplayCounter;
  readonly policy: CorsPolicy;
  private pagesKey: Promise<string> | undefined;

  constructor(
    private readonly env: Env,
    private readonly database: DatabaseHandle,
    readonly secrets: BrowserSecrets,
    readonly now: () => number = Date.now,
  ) {
    this.profiles = new DbHandprintProfiles(database);
    this.replay = new DbReplayCounter(database, now);
    this.policy = { allowedOrigins: env.VIGIL_JS_ALLOWED_ORIGINS };
  }

  /** POST /js/collect: components → handprint (matched against stored profiles), device_id echo, signed token. */
  async collect(input: { body: unknown; origin: string | null; userAgent: string | null }): Promise<CollectResponseBody> {
    const read = readCollection(input.body);
    if (!read.ok) throw read.error;
    const { request } = read;
    // What is read is stored (features, device_signals), so it must also be text PostgreSQL can hold.
    const storable = storableReading.safeParse(request);
    if (!storable.success) throw validationError(storable.error, 'Invalid collection');
    const store = this.profiles.forReading({ deviceId: request.device_id, deviceSignals: request.device_signals });
    const outcome = await resolveCollection(request, input, {
      store,
      keys: this.secrets.keys,
      salt: this.secrets.salt,
      now: this.now,
      randomBytes: (n) => randomBytes(n),
      tokenTtlSeconds: this.env.VIGIL_JS_TOKEN_TTL_SECONDS,
    });
    if (outcome.status !== 200) throw outcome.error;
    return outcome.body;
  }

  /** POST /events with properties.browser_token (see applyBrowserToken). */
  linkBackendEvent(event: NormalizedEvent): Promise<void> {
    return applyBrowserToken(event, {
      keys: this.secrets.keys,
      replay: this.replay,
      maxUses: this.env.VIGIL_JS_TOKEN_MAX_USES,
      profiles: this.profiles,
      now: this.now,
    });
  }

  /** The key id that browser events without a client key are stored under, created on first use. */
  pagesKeyId(): Promise<string> {
    this.pagesKey ??= (async () => {
      await this.database.db
        .insert(apiKeys)
        .values({ id: PAGES_KEY.id, kind: 'client', name: PAGES_KEY.name, hash: PAGES_KEY.hash, displayPrefix: '(internal)' })
        .onConflictDoNothing();
      return PAGES_KEY.id;
    })().catch((error: unknown) => {
      this.pagesKey = undefined;
      throw error instanceof VigilError ? error : new VigilError('unavailable', 'The events could not be stored; retry them');
    });
    return this.pagesKey;
  }
}

export async function createBrowserSupport(env: Env, database: DatabaseHandle): Promise<BrowserSupport> {
  return new BrowserSupport(env, database, await loadBrowserSecrets(env, database));
}
