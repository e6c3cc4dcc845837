/**
 * The bundle the systemd unit runs (main/service-build.ts) is a working server under plain
 * `node`, with no TypeScript loader: built into a scratch folder two levels below the checkout
 * (where dist/service sits), started with the unit's command line, it answers /api/health and
 * finds the checkout's package.json. How fast it starts is measured in bench/restart.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { COCKPIT_VERSION } from '../server/index.ts';
import { serveCommand } from './install-service.ts';
import { buildServiceBundle, checkoutRoot, SERVICE_BUNDLE } from './service-build.ts';

const root = checkoutRoot();
const scratch = join(root, 'dist', `.service-test-${process.pid}`);
const dataDir = mkdtempSync(join(tmpdir(), 'cockpit-bundle-'));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** The address the server prints once it listens (a bounded wait on its own output). */
function listening(proc: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`no "desktop server on" line in time; output so far:\n${out}`)),
      60_000,
    );
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /desktop server on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] as string);
    });
    proc.once('exit', (code, signal) =>
      reject(new Error(`the bundle exited (${code ?? signal}) before listening:\n${out}`)),
    );
  });
}

it('finds the checkout from the sources, the compiled dist/main and the bundle alike', () => {
  for (const file of [
    join(root, 'main', 'install-service.ts'),
    join(root, 'dist', 'main', 'install-service.js'),
    join(root, SERVICE_BUNDLE),
  ])
    expect(checkoutRoot(file)).toBe(root);
});

it('runs under plain node with the command line of the unit', async () => {
  const bundle = await buildServiceBundle(root, join(scratch, 'serve.js'));
  const [node, entry, ...args] = serveCommand(
    ['--sim', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
    root,
  );
  expect(relative(root, entry as string)).toBe(join('dist', 'service', 'serve.js'));
  child = spawn(node as string, [bundle, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      ROBOT_HTTPS_PORT: '0',
      ROBOT_CAMERA: 'off',
      ROBOT_MDNS: '0',
      ROBOT_LOG_LEVEL: 'error',
    },
  });
  // One byte a character in V8's copy of the source (main/service-build.ts says why).
  const beyondAscii = readFileSync(bundle).findIndex((byte) => byte > 0x7f);
  expect(beyondAscii).toBe(-1);
  const url = await listening(child);
  const health = await fetch(`${url}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true, version: COCKPIT_VERSION });
}, 120_000);
