import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The browser library's one-tag script, as built by `pnpm --filter @vigil/browser build`. */
export interface BrowserScript {
  bytes: Buffer;
  /** Content-hashed file name (`vigil.<version>.<hash>.min.js`) served with immutable caching. */
  versionedFile: string;
  /** SRI value; also the ETag, since it changes exactly when the bytes do. */
  integrity: string;
}

/** Reads the built script and its manifest from the @vigil/browser package (a workspace dependency). */
export function loadBrowserScript(): BrowserScript {
  const require = createRequire(import.meta.url);
  const bytes = readFileSync(require.resolve('@vigil/browser/script'));
  const manifest = JSON.parse(readFileSync(require.resolve('@vigil/browser/script-manifest'), 'utf8')) as {
    versioned_file: string;
    integrity: string;
  };
  return { bytes, versionedFile: manifest.versioned_file, integrity: manifest.integrity };
}
