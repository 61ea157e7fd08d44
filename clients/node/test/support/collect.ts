import { vigil, type VigilError, type VigilOptions } from '../../src/index.js';

/** A real client whose reported failures are collected for assertions. */
export function collectingClient(url: string, writeKey: string, options: VigilOptions = {}) {
  const errors: VigilError[] = [];
  const client = vigil(url, { writeKey, onError: (e) => errors.push(e), ...options });
  return { client, errors };
}
