/**
 * Node flags of every process the server's tests start that runs PGlite: the vitest workers (vitest.config.ts) and the
 * CLI and `vigil serve` children (cli.ts). PGlite's WebAssembly on V8's baseline compiler (Liftoff) alone: a test
 * process lives seconds to minutes and runs small queries, too few to repay the optimising recompile V8 starts on
 * PGlite's hottest functions. The tier changes how fast, never what, the code computes. Measured: a spawned command
 * ~0.5 s of CPU less (a third); a `vigil serve` child started, idle 2 s and stopped, 2.8 s of CPU with V8's defaults
 * and 1.7 s with Liftoff only; the PGlite pass's workers, 168 CPU-s on average over three runs with V8's defaults and
 * 151 over five with Liftoff only.
 */
export const TEST_NODE_FLAGS = ['--liftoff-only'];
