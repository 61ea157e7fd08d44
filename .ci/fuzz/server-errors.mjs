// Reads the server's JSON log on stdin and prints its errors once per kind, with a count: a failed query is known
// by its cause (as PostgreSQL words it), anything else by where it was thrown.
import { createInterface } from 'node:readline';

const kinds = new Map();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.startsWith('{')) continue;
  const entry = JSON.parse(line);
  if (entry.level < 50) continue;
  const stack = entry.err?.stack ?? '';
  const where = stack.match(/caused by: (.*)/)?.[1] ?? stack.match(/\n\s+at (?!JSON\.)(.*)/)?.[1] ?? '';
  const kind = `${entry.msg}: ${entry.err?.type ?? '?'}: ${(entry.err?.message ?? '').split('\n')[0].slice(0, 70)} (${where.slice(0, 160)})`;
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
}
for (const [kind, count] of kinds) console.log(`  ${count} × ${kind}`);
