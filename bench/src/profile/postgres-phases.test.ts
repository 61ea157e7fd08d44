import { describe, expect, it } from 'vitest';
import { phaseOf, postgresPhases } from './postgres-phases.js';

/** One sample of `perf script -F comm,ip,sym`: its process, then its frames innermost first. */
const sample = (comm: string, ...symbols: string[]) => `${comm} \n${symbols.map((s, i) => `\t          ${(0x4629da + i).toString(16)} ${s}`).join('\n')}\n`;
const backend = (...inner: string[]) => [...inner, 'PostgresMain', '[unknown]', 'PostmasterMain', 'main', '__libc_start_call_main'];

describe("PostgreSQL's phases", () => {
  it('takes the stage from the outermost frame that names one, and within the executor the innermost operation', () => {
    expect(phaseOf(backend('json_lex', 'pg_parse_json', 'jsonb_in', 'InputFunctionCall', 'OidInputFunctionCall'))).toBe(
      'bind: parameter input (the batch as jsonb)',
    );
    // An index read inside a subquery of the statement, itself inside an index insert's caller chain: innermost wins.
    expect(phaseOf(backend('_bt_compare', '_bt_first', 'btgetbitmap', 'ExecSetParamPlan', 'ExecScan', 'standard_ExecutorRun', 'PortalRun'))).toBe(
      'executor: index reads (lookups, conflict checks)',
    );
    expect(phaseOf(backend('_bt_compare', '_bt_doinsert', 'btinsert', 'ExecInsertIndexTuples', '[unknown]', 'standard_ExecutorFinish', 'PortalRun'))).toBe(
      'executor: index inserts',
    );
    expect(phaseOf(backend('hash_search_with_hash_value', 'ExecSubPlan', 'standard_ExecutorRun', 'PortalRun'))).toBe(
      'executor: the rest (joins, subqueries, expressions)',
    );
    expect(phaseOf(backend('finish_task_switch.isra.0', 'XLogFlush', 'CommitTransactionCommand'))).toBe('commit (WAL insert, write and flush)');
    expect(phaseOf(['copy_page', 'XLogBackgroundFlush', 'WalWriterMain', 'AuxiliaryProcessMain', 'PostmasterMain', 'main'])).toBe(
      'background (WAL writer, checkpointer, autovacuum)',
    );
    expect(phaseOf(backend('pq_getbyte'))).toBe('other (messages, transaction start)');
  });

  it('shares out the samples of postgres processes only, in the printed order, summing to one', () => {
    const script = [
      sample('postgres', ...backend('jsonb_in', 'OidInputFunctionCall')),
      sample('postgres', ...backend('jsonb_in', 'OidInputFunctionCall')),
      sample('postgres', ...backend('heap_insert', 'standard_ExecutorRun', 'PortalRun')),
      sample('postgres', ...backend('XLogFlush', 'CommitTransactionCommand')),
      sample('node', 'Builtins_LoadIC', 'main'),
    ].join('\n');
    const phases = postgresPhases(script);
    expect([...phases.entries()]).toEqual([
      ['bind: parameter input (the batch as jsonb)', 0.5],
      ['executor: heap inserts', 0.25],
      ['commit (WAL insert, write and flush)', 0.25],
    ]);
    expect(postgresPhases('').size).toBe(0);
  });
});
