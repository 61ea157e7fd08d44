import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time by process, from Linux's /proc: what each part of a run cost per event. On a small machine the server,
 * PostgreSQL and the load generator share the cores, so events/s alone cannot say which of them ran out; CPU per
 * event can, and it moves far less with the machine's drift than throughput does.
 */
export interface CpuSample {
  server: number;
  /** Of `server`, its main thread's. */
  serverMain: number;
  /** CPU seconds of each PostgreSQL process, by pid. */
  postgres: Map<number, number>;
  /** CPU seconds of the postmaster's exited children (see reapedChildrenSecondsOf); 0 without a postmaster. */
  postgresExited: number;
  generator: number;
}

/** Microseconds of CPU per event of each part. */
export interface CpuPerEvent {
  server: number;
  /**
   * Of `server`, its main thread's (HTTP, Vigil's code, the database driver). The rest is its other threads: V8's
   * GC and compiler helpers, libuv's pool and, on PGlite, the thread PostgreSQL runs on.
   */
  serverMain: number;
  postgres: number;
  generator: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

/**
 * The fields of /proc/<pid>/stat (or of one thread's, `task/<tid>/stat`) after the command name (which may hold
 * spaces), or undefined if it is gone.
 */
function statFields(pid: number, tid?: number): string[] | undefined {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used, or 0 if it is gone or /proc is not there. */
export function cpuSecondsOf(pid: number): number {
  return seconds(statFields(pid));
}

/** CPU seconds of a process's main thread (whose thread id is its pid), or 0 if it is gone. */
export function mainThreadSecondsOf(pid: number): number {
  return seconds(statFields(pid, pid));
}

const seconds = (fields: string[] | undefined) => (fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : 0);

/**
 * CPU seconds of the children a process has reaped (cutime + cstime), or 0 if it is gone. The postmaster reaps each
 * backend that exits, so a backend that ends during a measurement (a pool closing an idle connection: node-postgres
 * does after 10 s) still counts, through it.
 */
export function reapedChildrenSecondsOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND : 0;
}

/** CPU seconds of PostgreSQL's processes (postgresPids) but `notOurs`, those alive and those the postmaster reaped. */
export function postgresSecondsOf(postmaster?: number, notOurs: readonly number[] = []): { live: Map<number, number>; exited: number } {
  const live = new Map(
    postgresPids(postmaster)
      .filter((pid) => !notOurs.includes(pid))
      .map((pid) => [pid, cpuSecondsOf(pid)]),
  );
  return { live, exited: postmaster === undefined ? 0 : reapedChildrenSecondsOf(postmaster) };
}

/** All of `postgresSecondsOf`'s seconds: the live processes' and the reaped ones'. */
export function postgresTotal({ live, exited }: { live: ReadonlyMap<number, number>; exited: number }): number {
  let total = exited;
  for (const seconds of live.values()) total += seconds;
  return total;
}

/**
 * Seconds a process's main thread has spent ready to run and waiting for a CPU (Linux's run-queue delay,
 * /proc/<pid>/schedstat), or undefined where the kernel does not say. On a machine with few cores the server,
 * PostgreSQL and the generator take turns, and a request waits while its server does.
 */
export function runQueueSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // "<time on a CPU> <time waiting on a run queue> <timeslices>", in ns. A kernel that keeps no such accounting
    // (some sandboxes) shows no time on a CPU for a process that has run: that says nothing, not zero.
    const [onCpu, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return onCpu && Number.isFinite(waited) ? waited! / 1e9 : undefined;
  } catch {
    return undefined;
  }
}

/** The parent of a process, or undefined if it is gone. */
export function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

/**
 * PostgreSQL's processes: with `postmaster`, that server and its children only (other servers may share the
 * machine); without, every process named postgres.
 */
export function postgresPids(postmaster?: number): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number)
      .filter((pid) => postmaster === undefined || pid === postmaster || parentOf(pid) === postmaster);
  } catch {
    return [];
  }
}

/**
 * CPU used so far by the server process, PostgreSQL's processes (see postgresPids) but those in `notOurs` (the
 * benchmark's own connections), and this process (the generator).
 */
export function sampleCpu(serverPid: number | undefined, postmaster?: number, notOurs: readonly number[] = []): CpuSample {
  const usage = process.cpuUsage();
  const postgres = postgresSecondsOf(postmaster, notOurs);
  return {
    server: serverPid === undefined ? 0 : cpuSecondsOf(serverPid),
    serverMain: serverPid === undefined ? 0 : mainThreadSecondsOf(serverPid),
    postgres: postgres.live,
    postgresExited: postgres.exited,
    generator: (usage.user + usage.system) / 1e6,
  };
}

/** Microseconds of CPU per event for each part, between two samples. */
export function perEvent(before: CpuSample, after: CpuSample, events: number): CpuPerEvent {
  // A backend that started in between counts whole; one that exited in between left its CPU to the postmaster,
  // which it counted before as its own.
  const postgres =
    postgresTotal({ live: after.postgres, exited: after.postgresExited }) - postgresTotal({ live: before.postgres, exited: before.postgresExited });
  const us = (seconds: number) => (events > 0 ? (seconds * 1e6) / events : NaN);
  return {
    server: us(after.server - before.server),
    serverMain: us(after.serverMain - before.serverMain),
    postgres: us(postgres),
    generator: us(after.generator - before.generator),
  };
}

/** CPU seconds the whole machine has spent busy (every process, every core), from /proc/stat; 0 without /proc. */
export function machineBusySeconds(): number {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks.map(Number);
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
