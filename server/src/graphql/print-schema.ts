#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printVigilSchema } from './schema.js';

/** Writes server/schema.graphql from the type-graphql classes: `node dist/graphql/print-schema.js`. */
const target = fileURLToPath(new URL('../../schema.graphql', import.meta.url));
writeFileSync(target, await printVigilSchema());
process.stdout.write(`Wrote ${target}\n`);
