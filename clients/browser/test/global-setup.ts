import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { buildScript, scriptBuildOptions } from "../scripts/build-script.mjs";
import { launchChromiumServer } from "@vigil/test-kit";

declare module "vitest" {
  export interface ProvidedContext {
    wsEndpoint: string;
    staticOrigin: string;
  }
}

/**
 * Builds the real script bundle (dist/vigil.min.js) and the test harness bundle, serves them from a local HTTP
 * server, and starts one Chromium that every browser test connects to.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildScript();
  const harness = await build({ ...scriptBuildOptions("src/testing/harness.ts", "VigilHarness"), minify: false });
  const harnessJs = harness.outputFiles?.[0]?.text ?? "";
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>harness</title><script src="/harness.js"></script></head><body></body></html>`;
  const server: Server = createServer((req, res) => {
    if (req.url === "/harness.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(harnessJs);
    } else if (req.url === "/" || req.url?.startsWith("/?")) {
      res.writeHead(200, { "content-type": "text/html" }).end(html);
    } else if (req.url?.startsWith("/page.html")) {
      // A customer's static page with the one-line tag pointing at a Vigil server (?vigil=<base>).
      const vigil = new URL(req.url, "http://x").searchParams.get("vigil") ?? "";
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><html><head><meta charset="utf-8"><script src="${vigil}/js"></script></head><body>shop</body></html>`);
    } else if (req.url === "/blank.html") {
      res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browserServer: BrowserServer = await launchChromiumServer();
  project.provide("wsEndpoint", browserServer.wsEndpoint());
  project.provide("staticOrigin", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    await browserServer.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
