/** One entropy source: a name and a function reading the browser. It may throw; the runner turns that into data. */
export interface Source<T = unknown> {
  readonly name: string;
  collect(): T | Promise<T>;
}

/** What one source produced: its value, or why it failed. `ms` is how long it took. */
export type Component = { value: unknown; ms: number } | { error: string; ms: number };

export type Components = Record<string, Component>;
