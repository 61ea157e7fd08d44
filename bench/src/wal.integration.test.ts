import { describe, expect, it } from 'vitest';
import { withClient } from './targets.js';
import { configureWal, readyWalSegments } from './wal.js';

/** WAL segment files after the one being written: the segments ready for the WAL to reach. */
const segmentsAhead = () =>
  withClient(async (c) => {
    const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM pg_ls_waldir() WHERE name > pg_walfile_name(pg_current_wal_lsn())');
    return Number(rows[0]!.n);
  });

describe('readyWalSegments', () => {
  it('leaves the segments it made ahead of the WAL, so that no commit creates one', async () => {
    await configureWal();
    const before = await segmentsAhead();
    await readyWalSegments(6);
    expect(await segmentsAhead()).toBeGreaterThanOrEqual(before + 6);
  });
});
