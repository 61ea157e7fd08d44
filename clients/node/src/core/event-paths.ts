import { VigilError } from './errors.js';

/**
 * Event names per HTTP method and path pattern, e.g.
 * `{ post: { login: '/login', transfer: '/accounts/*\/transfer' } }`.
 * Pattern segments: a literal, `*` or `:name` (exactly one segment), or `**` (any number of
 * segments, including none). A trailing slash is ignored; matching is case-sensitive, like routes.
 */
export type EventPathMap = Partial<Record<HttpMethodKey, Record<string, string | readonly string[]>>>;

export type HttpMethodKey = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'all';

const METHODS = new Set<string>(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all']);

interface Rule {
  method: string;
  event: string;
  segments: string[];
}

/** A compiled EventPathMap: tells which event (if any) a request stands for. */
export class EventPaths {
  private constructor(private readonly rules: readonly Rule[]) {}

  static readonly none = new EventPaths([]);

  /** Compiles the map; an unknown method or a pattern not starting with "/" is a configuration error. */
  static compile(map: EventPathMap): EventPaths {
    const rules: Rule[] = [];
    for (const [methodKey, events] of Object.entries(map)) {
      const method = methodKey.toLowerCase();
      if (!METHODS.has(method)) {
        throw new VigilError('config', `eventPaths: unknown method "${methodKey}"`);
      }
      for (const [event, patterns] of Object.entries(events ?? {})) {
        for (const pattern of typeof patterns === 'string' ? [patterns] : patterns) {
          if (typeof pattern !== 'string' || !pattern.startsWith('/')) {
            throw new VigilError('config', `eventPaths: pattern for "${event}" must start with "/"`);
          }
          rules.push({ method, event, segments: split(pattern) });
        }
      }
    }
    return new EventPaths(rules);
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** The event for this method and path: the first matching rule in the order they were given. */
  match(method: string | undefined, path: string | undefined): string | undefined {
    if (method === undefined || path === undefined) return undefined;
    const m = method.toLowerCase();
    const segments = split(path);
    for (const rule of this.rules) {
      if ((rule.method === m || rule.method === 'all') && matches(rule.segments, 0, segments, 0)) return rule.event;
    }
    return undefined;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matches(pattern: string[], pi: number, path: string[], si: number): boolean {
  if (pi === pattern.length) return si === path.length;
  const segment = pattern[pi]!;
  if (segment === '**') {
    for (let skip = si; skip <= path.length; skip++) {
      if (matches(pattern, pi + 1, path, skip)) return true;
    }
    return false;
  }
  if (si === path.length) return false;
  if (segment === '*' || segment.startsWith(':') || segment === path[si]) {
    return matches(pattern, pi + 1, path, si + 1);
  }
  return false;
}
