/** A tiny flag parser: `--name value`, `--flag`, positionals. The CLI has few commands; no dependency needed. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[i + 1];
      if (inline !== undefined) flags.set(name, inline);
      else if (next !== undefined && !next.startsWith('--')) {
        flags.set(name, next);
        i++;
      } else flags.set(name, true);
    } else positionals.push(arg);
  }
  return { positionals, flags };
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** `--overlap-hours H` of a rotation; undefined: the configured default. */
export function overlapHoursFlag(args: ParsedArgs): number | undefined {
  const value = stringFlag(args, 'overlap-hours');
  if (value === undefined) return undefined;
  const hours = Number(value);
  if (value.trim() === '' || !Number.isFinite(hours)) throw new UsageError('--overlap-hours needs a number of hours (0: the old one stops at once)');
  return hours;
}
