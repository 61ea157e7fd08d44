// Builds the one-tag script: a single minified IIFE exposing window.Vigil, plus a content-hashed copy for
// immutable caching and a manifest the server reads to serve GET /js.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** esbuild options shared by the package build and the tests (which bundle the same way). */
export function scriptBuildOptions(entry = "src/script.ts", globalName = "Vigil") {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    globalName,
    minify: true,
    target: ["es2020"],
    platform: "browser",
    legalComments: "none",
    write: false,
  };
}

/** Builds into outdir and returns the manifest. */
export async function buildScript(outdir = join(root, "dist")) {
  const result = await build(scriptBuildOptions());
  const code = result.outputFiles[0].contents;
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  const digest = createHash("sha384").update(code).digest();
  const short = createHash("sha256").update(code).digest("hex").slice(0, 10);
  const manifest = {
    name: "@vigil/browser",
    version,
    file: "vigil.min.js",
    versioned_file: `vigil.${version}.${short}.min.js`,
    integrity: `sha384-${digest.toString("base64")}`,
    bytes: code.length,
    gzip_bytes: gzipSync(code, { level: 9 }).length,
  };
  mkdirSync(outdir, { recursive: true });
  for (const old of readdirSync(outdir)) {
    if (/^vigil\..+\.min\.js$/.test(old) && old !== manifest.versioned_file) rmSync(join(outdir, old));
  }
  writeFileSync(join(outdir, manifest.file), code);
  writeFileSync(join(outdir, manifest.versioned_file), code);
  writeFileSync(join(outdir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildScript();
  console.log(`${manifest.file}: ${manifest.bytes} bytes, ${manifest.gzip_bytes} gzipped -> ${manifest.versioned_file}`);
}
