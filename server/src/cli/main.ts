#!/usr/bin/env node
import { processIo } from './io.js';
import { runCommand } from './run.js';

// A failed command ends the process at once: what it left open (a pool, a timer) must not keep it alive.
runCommand(process.argv.slice(2), processIo()).then((code) => {
  if (code !== 0) process.exit(code);
});
