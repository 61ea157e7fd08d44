import { describe, expect, it } from 'vitest';
import { phaseOf, postgresPhases } from './postgres-phases.js';

/** One sample of `perf script -F comm,pid,ip,sym`: its process and pid, then its frames innermost first. */
const sample = (comm: string, pid: number, ...symbols: string[]) =>
  `${comm}  ${pid} \n${symbols.map((s, i) => `\t          ${(0x4629da + i).toString(16)} ${s}`).join('\n')}\n`;
const backend = (...inner: string[]) => [...inner, 'PostgresMain', '[unknown]', 'PostmasterMain', 'main', '__libc_start_call_main'];

describe("PostgreSQL's phases", () => {
  it('takes the stage from the outermost frame that names one, and within the executor the operation any frame below it names', () => {
    expect(phaseOf(backend('json_lex', 'pg_parse_json', 'jsonb_in', 'InputFunctionCall', 'OidInputFunctionCall'))).toBe(
      'bind: parameter input (the batch as jsonb)',
    );
    // An index read inside a subquery of the statement is a lookup.
    expect(phaseOf(backend('_bt_compare', '_bt_first', 'btgetbitmap', 'ExecSetParamPlan', 'ExecScan', 'standard_ExecutorRun', 'PortalRun'))).toBe(
      'executor: index reads (lookups, conflict checks)',
    );
    expect(phaseOf(backend('_bt_compare', '_bt_doinsert', 'btinsert', 'ExecInsertIndexTuples', '[unknown]', 'standard_ExecutorFinish', 'PortalRun'))).toBe(
      'executor: index inserts',
    );
    // A unique index's check of the heap is the insert's cost.
    expect(
      phaseOf(backend('heap_hot_search_buffer', '_bt_check_unique', '_bt_doinsert', 'btinsert', 'ExecInsertIndexTuples', 'standard_ExecutorRun', 'PortalRun')),
    ).toBe('executor: index inserts');
    expect(phaseOf(backend('hash_search_with_hash_value', 'ExecSubPlan', 'standard_ExecutorRun', 'PortalRun'))).toBe(
      'executor: the rest (joins, subqueries, expressions)',
    );
    expect(phaseOf(backend('finish_task_switch.isra.0', 'XLogFlush', 'CommitTransactionCommand'))).toBe('commit (WAL insert, write and flush)');
    expect(phaseOf(['copy_page', 'XLogBackgroundFlush', 'WalWriterMain', 'AuxiliaryProcessMain', 'PostmasterMain', 'main'])).toBe(
      'background (WAL writer, checkpointer, autovacuum)',
    );
    expect(phaseOf(backend('pq_getbyte'))).toBe('other (messages, transaction start)');
  });

  it("shares out the samples of the given server's postgres processes only, in the printed order, summing to one", () => {
    const script = [
      sample('postgres', 11, ...backend('jsonb_in', 'OidInputFunctionCall')),
      sample('postgres', 11, ...backend('jsonb_in', 'OidInputFunctionCall')),
      sample('postgres', 12, ...backend('heap_insert', 'standard_ExecutorRun', 'PortalRun')),
      sample('postgres', 13, ...backend('XLogFlush', 'CommitTransactionCommand')),
      // Another server's backend, and another program.
      sample('postgres', 99, ...backend('heap_insert', 'standard_ExecutorRun', 'PortalRun')),
      sample('node', 11, 'Builtins_LoadIC', 'main'),
    ].join('\n');
    const phases = postgresPhases(script, new Set([11, 12, 13]));
    expect(phases.samples).toBe(4);
    expect([...phases.shares.entries()]).toEqual([
      ['bind: parameter input (the batch as jsonb)', 0.5],
      ['executor: heap inserts', 0.25],
      ['commit (WAL insert, write and flush)', 0.25],
    ]);
    expect(postgresPhases('', new Set([11]))).toEqual({ samples: 0, shares: new Map() });
  });
});
