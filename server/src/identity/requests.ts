import { sql } from 'drizzle-orm';
import type { Actor } from '../auth/account-audit.js';
import type { DatabaseHandle } from '../db/handle.js';
import { rows } from '../db/rows.js';
import { VigilError } from '../errors.js';
import { recordDataRequest, subjectHasher } from './audit.js';
import { eraseIdentity, type EraseOptions, type ErasureReport } from './erase.js';
import { exportEvents, identityRecord } from './export.js';
import { identityValues } from './values.js';

export interface ExportSummary {
  requestId: string;
  events: number;
}

/**
 * Data-protection requests about one identity (GDPR articles 15 and 17, and their equivalents): export what is
 * held, or erase it. Shared by the CLI and the admin GraphQL API; each request is logged in `data_requests`
 * under a keyed hash of the identity, never the identity itself.
 */
export class IdentityRequests {
  constructor(private readonly database: DatabaseHandle) {}

  private check(identity: string): void {
    if (identity.trim() === '') throw new VigilError('validation_failed', 'identity must not be empty');
  }

  /** How many events the identity has, counting no further than `cap + 1`. */
  async eventCount(identity: string, cap: number): Promise<number> {
    const [row] = await rows<{ n: number }>(
      this.database.db,
      sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events WHERE identity = ${identity} LIMIT ${cap + 1}) x`,
    );
    return row!.n;
  }

  /**
   * Writes the identity's record as one JSON document, in pieces: everything but the events first, then the
   * events a batch at a time, so an export of millions of events never holds more than one batch.
   */
  async export(actor: Actor, identity: string, write: (chunk: string) => void | Promise<void>): Promise<ExportSummary> {
    this.check(identity);
    const db = this.database.db;
    const values = await identityValues(db, identity);
    const record = await identityRecord(db, values);
    const head = JSON.stringify(record);
    await write(`${head.slice(0, -1)},"events":[`);
    let events = 0;
    for await (const batch of exportEvents(db, identity)) {
      await write(batch.map((e, i) => (events + i === 0 ? '' : ',') + JSON.stringify(e)).join(''));
      events += batch.length;
    }
    await write(']}');
    const hash = (await subjectHasher(this.database))(identity);
    const requestId = await recordDataRequest(db, actor, 'export', hash, {
      events,
      devices: record.devices.length,
      registrations: record.registrations.length,
      registry_history: record.registry_history.length,
      emails: record.contact_sightings.emails.length,
      phones: record.contact_sightings.phones.length,
      ips: record.contact_sightings.ips.length,
    });
    return { requestId, events };
  }

  /** Erases the identity (see eraseIdentity) and logs the request with what was changed, never the values. */
  async erase(actor: Actor, identity: string, options: EraseOptions = {}): Promise<ErasureReport & { requestId: string }> {
    this.check(identity);
    const db = this.database.db;
    const values = await identityValues(db, identity);
    const hash = (await subjectHasher(this.database))(identity);
    const report = await eraseIdentity(db, values, options);
    // The pseudonym is left out: with the hash beside it, the log would tie the identity to its pseudonymised history.
    const requestId = await recordDataRequest(db, actor, 'erase', hash, { found: report.found, changed: report.changed });
    return { ...report, requestId };
  }
}
