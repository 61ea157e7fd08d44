import type { Component, Components, Source } from "./types.js";
import { clip } from "../core/clip.js";

export interface RunOptions {
  /** Per-source limit; a source still pending after it is recorded as `{error: "timeout after …"}`. */
  timeoutMs: number;
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Largest serialized value one source may report; bigger readings must be hashed by the source itself. */
export const MAX_COMPONENT_CHARS = 4096;

/**
 * Runs every source and never rejects: each failure (throw, rejection, timeout, unserializable or oversized
 * value) becomes `{error}` for that source only. All sources are started before any is awaited so that
 * asynchronous ones (audio, client hints) overlap.
 */
export async function runSources(sources: readonly Source[], options: RunOptions): Promise<Components> {
  const pending = sources.map((source) => runOne(source, options).then((c) => [source.name, c] as const));
  const settled = await Promise.all(pending);
  const out: Components = {};
  for (const [name, component] of settled) out[name] = component;
  return out;
}

async function runOne(source: Source, options: RunOptions): Promise<Component> {
  const started = options.now();
  const ms = () => Math.max(0, Math.round(options.now() - started));
  try {
    const produced = source.collect();
    const value = isThenable(produced) ? await withTimeout(produced, options) : produced;
    return { value: checkSerializable(value), ms: ms() };
  } catch (error) {
    return { error: describeError(error), ms: ms() };
  }
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return typeof x === "object" && x !== null && typeof (x as { then?: unknown }).then === "function";
}

function withTimeout<T>(promise: PromiseLike<T>, options: RunOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = options.setTimeout(() => reject(new Error(`timeout after ${options.timeoutMs} ms`)), options.timeoutMs);
    promise.then(
      (v) => {
        options.clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        options.clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function checkSerializable(value: unknown): unknown {
  if (value === undefined) return null;
  // JSON round trip: what the server receives is what we report, and BigInt/cycles fail here, not in send().
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  if (text.length > MAX_COMPONENT_CHARS) throw new Error(`value too large (${text.length} chars)`);
  return JSON.parse(text) as unknown;
}

export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
  else {
    try {
      text = String(error);
    } catch {
      text = "unknown error";
    }
  }
  return clip(text || "unknown error", 200);
}
