import { lt, sql } from 'drizzle-orm';
import { browserTokenUses } from '@vigil/drizzle/schema';
import type { ReplayCounter } from './token/types.js';
import type { DatabaseHandle } from '../db/handle.js';

/** Expired rows are deleted every this many uses (cheap: an index range scan on expires_at). */
const PRUNE_EVERY = 500;

/**
 * browser_token uses counted in the database with one atomic upsert, so a token replayed against several Vigil
 * processes is counted once across all of them. Only tokens with a valid signature and expiry reach it.
 */
export class DbReplayCounter implements ReplayCounter {
  private calls = 0;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly now: () => number = Date.now,
  ) {}

  async use(jti: string, expiresAtMs: number): Promise<number> {
    if (++this.calls % PRUNE_EVERY === 0) await this.prune();
    const [row] = await this.database.db
      .insert(browserTokenUses)
      .values({ jti, uses: 1, expiresAt: new Date(expiresAtMs) })
      .onConflictDoUpdate({ target: browserTokenUses.jti, set: { uses: sql`${browserTokenUses.uses} + 1` } })
      .returning({ uses: browserTokenUses.uses });
    return row!.uses;
  }

  /** Forgets tokens that have expired: they are refused before counting, so their counts no longer matter. */
  async prune(): Promise<number> {
    const deleted = await this.database.db
      .delete(browserTokenUses)
      .where(lt(browserTokenUses.expiresAt, new Date(this.now())))
      .returning({ jti: browserTokenUses.jti });
    return deleted.length;
  }
}
