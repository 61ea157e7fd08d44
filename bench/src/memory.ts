import { readFileSync } from 'node:fs';
import { postgresPids } from './cpu.js';

/**
 * Memory by process, from Linux's /proc, as cpu.ts reads CPU: what a long run's processes hold, measured from
 * outside so it counts what the process cannot see of itself (PGlite's WebAssembly memory, native buffers).
 */

/** A field of /proc/<pid>/<file> given in kB ("VmRSS:  1234 kB"), in bytes; undefined if absent or unreadable. */
function kbField(pid: number, file: string, field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in bytes, or NaN if it is gone. */
export function rssOf(pid: number): number {
  return kbField(pid, 'status', 'VmRSS') ?? NaN;
}

/**
 * Memory of one PostgreSQL server (the postmaster and its children) in bytes, as the sum of each process's
 * proportional set size: every backend maps the same shared buffers, so a sum of RSS would count them once per
 * backend and grow with the number of connections, not with what the server holds. Where PSS is unreadable
 * (another user's processes without privileges) RSS stands in.
 */
export function postgresMemory(postmaster: number): number {
  let total = 0;
  for (const pid of postgresPids(postmaster)) total += kbField(pid, 'smaps_rollup', 'Pss') ?? kbField(pid, 'status', 'VmRSS') ?? 0;
  return total;
}
