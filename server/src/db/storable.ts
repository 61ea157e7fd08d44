import { z } from 'zod';
import { unstorable } from './safe-text.js';

export interface TreeLimits {
  /** Containers nested deeper than this are refused; the root is level 1. */
  maxDepth: number;
  /** Object keys across every level. */
  maxKeys: number;
}

type Path = (string | number)[];
export interface TreeIssue {
  path: Path;
  message: string;
}

/** Enough to act on; a body full of bad strings should not produce a response as large as itself. */
const MAX_ISSUES = 20;

/**
 * Problems of a parsed JSON value that would be stored: strings and keys PostgreSQL refuses, nesting and key
 * count over the limits. Iterative, and it never descends past `maxDepth`, so no input can exhaust the stack.
 * A bad key is reported at its parent's path, so the answer never carries the key itself.
 */
export function jsonTreeIssues(root: unknown, limits: TreeLimits): TreeIssue[] {
  const issues: TreeIssue[] = [];
  let keys = 0;
  const stack: { node: unknown; path: Path; depth: number }[] = [{ node: root, path: [], depth: 1 }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      const problem = unstorable(node);
      if (problem) issues.push({ path, message: problem });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > limits.maxDepth) {
      issues.push({ path, message: `nesting deeper than ${limits.maxDepth} levels` });
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: [...path, i], depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(node);
    keys += entries.length;
    for (const [key, child] of entries.reverse()) {
      const problem = unstorable(key);
      if (problem) issues.push({ path, message: `key ${problem}` });
      else stack.push({ node: child, path: [...path, key], depth: depth + 1 });
    }
  }
  if (keys > limits.maxKeys) issues.push({ path: [], message: `more than ${limits.maxKeys} keys in total` });
  return issues.slice(0, MAX_ISSUES);
}

/**
 * True exactly when `jsonTreeIssues` finds nothing, without building a path or an issue: every event's properties
 * pass here (ingest/fast-input.ts), where the walk's paths and stack entries were a twentieth of what an event
 * allocates. The recursion goes no deeper than `maxDepth` + 1 calls, so no input can exhaust the stack.
 */
export function jsonTreeStorable(root: unknown, limits: TreeLimits): boolean {
  let keys = 0;
  const storable = (node: unknown, depth: number): boolean => {
    if (typeof node === 'string') return unstorable(node) === undefined;
    if (node === null || typeof node !== 'object') return true;
    if (depth > limits.maxDepth) return false;
    if (Array.isArray(node)) {
      for (const child of node) if (!storable(child, depth + 1)) return false;
      return true;
    }
    // Own enumerable string keys, as Object.entries in jsonTreeIssues.
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (++keys > limits.maxKeys || unstorable(key) !== undefined) return false;
      if (!storable((node as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return true;
  };
  return storable(root, 1);
}

/** `jsonTreeIssues` as a zod refinement, for `.superRefine` on the object that holds the tree. */
export const storableTree =
  (limits: TreeLimits) =>
  (value: unknown, ctx: z.RefinementCtx): void => {
    for (const issue of jsonTreeIssues(value, limits)) ctx.addIssue({ code: 'custom', ...issue });
  };
