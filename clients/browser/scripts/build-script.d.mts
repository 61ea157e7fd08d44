import type { BuildOptions } from "esbuild";

export interface ScriptManifest {
  name: string;
  version: string;
  file: string;
  versioned_file: string;
  integrity: string;
  bytes: number;
  gzip_bytes: number;
}

export function scriptBuildOptions(entry?: string, globalName?: string): BuildOptions & { write: false };
export function buildScript(outdir?: string): Promise<ScriptManifest>;
