import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startVigil, type RunningVigil } from './start-vigil.js';
import { postJson } from './support/http.js';
import { deliveredBatchItems, startProxy, type RecordingProxy } from './support/recording-proxy.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

let server: RunningVigil;
let recorder: RecordingProxy;

beforeAll(async () => {
  // The published artifacts, built as `pnpm build` builds them (the bootstrap's build: a no-op when the bootstrap
  // already built these sources, a rebuild when anything they are made from changed since).
  await run(process.execPath, ['../../.ci/build.mjs', '@vigil/node'], { cwd: packageDir, timeout: 120_000 });
  server = await startVigil();
  recorder = await startProxy({ target: server.url });
});

afterAll(async () => {
  await recorder?.close();
  await server?.stop();
});

/** Runs a script inside the package, so `@vigil/node` resolves to this package's exports. */
async function runInPackage(flag: '--input-type=module' | '--input-type=commonjs', script: string): Promise<string> {
  const { stdout } = await run(process.execPath, [flag, '-e', script], {
    cwd: packageDir,
    env: { ...process.env, VIGIL_URL: server.url, VIGIL_WRITE_KEY: server.writeKey },
    timeout: 30_000,
  });
  return stdout.trim();
}

describe('the built package', () => {
  it('ships ESM and CommonJS builds with type declarations', () => {
    for (const file of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts']) {
      expect(existsSync(`${packageDir}/${file}`), file).toBe(true);
    }
    expect(readFileSync(`${packageDir}/dist/cjs/index.js`, 'utf8')).toContain('exports.vigil');
  });

  it('works from CommonJS (require) against the real server', async () => {
    const out = await runInPackage(
      '--input-type=commonjs',
      `const { vigil } = require('@vigil/node');
       const risk = vigil(process.env.VIGIL_URL);
       risk.trackAsync('login', { device_id: 'cjs-1' }).then(async (i) => {
         console.log(JSON.stringify({ failOpen: i.failOpen, device_id: i.device_id, evt: i.event_id }));
         await risk.close();
       });`,
    );
    const result = JSON.parse(out);
    expect(result).toMatchObject({ failOpen: false, device_id: 'cjs-1' });
    expect(result.evt).toMatch(/^evt_/);
  });

  it('works from ESM (import) against the real server', async () => {
    const out = await runInPackage(
      '--input-type=module',
      `import { vigil } from '@vigil/node';
       const risk = vigil(process.env.VIGIL_URL);
       const i = await risk.setIp('203.0.113.1').trackAsync('login', { device_id: 'esm-1' });
       console.log(JSON.stringify({ failOpen: i.failOpen, device_id: i.device_id, tagged: i.hasTag('tor') }));
       await risk.close();`,
    );
    expect(JSON.parse(out)).toEqual({ failOpen: false, device_id: 'esm-1', tagged: false });
  });
});

describe('the README example', () => {
  it('runs as written: login decides on insights, the transfer is tracked and flushed on SIGTERM', async () => {
    const readme = readFileSync(`${packageDir}/README.md`, 'utf8');
    const block = /<!-- example:express[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
    expect(block, 'README example block').not.toBeNull();
    const file = `${packageDir}/test/.readme-example-${process.pid}.mjs`;
    await writeFile(file, block![1]!);
    const port = await freePort();
    const child = spawn(process.execPath, [file], {
      cwd: packageDir,
      env: { ...process.env, VIGIL_URL: recorder.url, VIGIL_WRITE_KEY: server.writeKey, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const app = `http://127.0.0.1:${port}`;
      let up = false;
      for (let i = 0; i < 400 && !up && child.exitCode === null; i++) {
        up = await fetch(`${app}/`).then(
          () => true,
          () => false,
        );
        if (!up) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(up, output).toBe(true);

      const login = await postJson(`${app}/login`, { email: 'readme@example.com' }, { 'x-vigil-device-id': 'readme-dev' });
      expect(login.status, output).toBe(200);
      expect(['allow', 'step_up']).toContain(login.json.decision);
      expect(typeof login.json.risk_score).toBe('number');
      const sent = recorder.exchanges.find((x) => x.path === '/events' && x.body.properties.device_id === 'readme-dev');
      expect(sent?.body.identity).toBe('readme@example.com');
      expect(sent?.status).toBe(200);

      const transfer = await postJson(`${app}/accounts/42/transfer`, { amount: 5 }, { 'x-vigil-device-id': 'readme-dev' });
      expect(transfer.json).toEqual({ ok: true });

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const [item] = deliveredBatchItems(recorder.exchanges).filter((x) => x.event.event === 'transfer');
      expect(item?.event.properties).toMatchObject({ device_id: 'readme-dev', request_path: '/accounts/42/transfer', status_code: 200 });
      expect(item?.result.status).toBe(200);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(file, { force: true });
    }
  });
});
