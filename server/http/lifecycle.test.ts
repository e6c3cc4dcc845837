/**
 * The shared start-up and shutdown (lifecycle.ts): undos run newest first and once, a failing undo
 * does not keep the others from running, and a start that throws undoes what it had built before
 * the error reaches the caller. On a port already taken, both servers fail their start with the
 * listen error and leave nothing open; the desktop server's start has by then opened the
 * simulator and the daemon connection, so its case fails if the teardown is skipped (the wheeled
 * server opens no socket or timer before it listens). Stopping a running server is checked in
 * cockpit-app.test.ts.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config.ts';
import { startCockpit } from '../index.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { startWheeledServer } from '../wheeled/index.ts';
import { createTeardown, startWithTeardown } from './lifecycle.ts';

describe('a teardown', () => {
  it('runs every undo once, newest first, even past one that fails', async () => {
    const ran: string[] = [];
    const teardown = createTeardown();
    teardown.push(() => void ran.push('port'));
    teardown.push(() => {
      ran.push('child');
      throw new Error('already gone');
    });
    teardown.push(async () => void ran.push('timer'));
    const first = teardown.run();
    expect(teardown.run()).toBe(first);
    await first;
    await teardown.run();
    expect(ran).toEqual(['timer', 'child', 'port']);
  });

  it('undoes a start that throws, then passes its error on', async () => {
    const ran: string[] = [];
    const failure = new Error('port in use');
    await expect(
      startWithTeardown(async (teardown) => {
        teardown.push(() => void ran.push('sim'));
        teardown.push(() => void ran.push('https'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(ran).toEqual(['https', 'sim']);
  });
});

/** A port some other program holds for the length of the test. */
async function heldPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = createServer();
  holder.listen(0, '127.0.0.1');
  await once(holder, 'listening');
  const address = holder.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    port: address.port,
    release: async () => {
      holder.close();
      await once(holder, 'close');
    },
  };
}

/** The process's open listeners, TCP sockets and timers, by kind. */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo())
    if (/^(TCPServerWrap|TCPSocketWrap|Timeout)$/.test(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/**
 * Waits until no more listeners, sockets or timers are open than `before`. Peers see a close a
 * moment after it is made, so the count settles rather than drops at once; "no more than" because
 * the test runner's own timers come and go.
 */
async function settlesTo(before: Record<string, number>): Promise<void> {
  let now = handles();
  const within = () => Object.entries((now = handles())).every(([kind, n]) => n <= (before[kind] ?? 0));
  await eventually(within, { what: `open handles back to ${JSON.stringify(before)}` }).catch((error: Error) => {
    throw new Error(`${error.message}; still open: ${JSON.stringify(now)}`);
  });
}

const dataDir = () => mkdtempSync(join(tmpdir(), 'cockpit-lifecycle-'));

describe.each([
  {
    name: 'desktop',
    start: (port: number) =>
      startCockpit({
        config: loadConfig({
          env: { ROBOT_HTTPS_PORT: '0', ROBOT_CAMERA: 'off', ROBOT_MDNS: '0', ROBOT_THINKER_INTERVAL: '3600' },
          flags: { sim: true, port: String(port), host: '127.0.0.1', dataDir: dataDir() },
        }),
        log: silentLog,
        ownerToken: 'lifecycle-owner-token-0123456789',
      }),
  },
  {
    name: 'wheeled',
    start: (port: number) =>
      startWheeledServer({
        config: loadConfig({
          env: { ROBOT_B_PORT: String(port), ROBOT_B_TLS: '0' },
          flags: { host: '127.0.0.1', dataDir: dataDir() },
        }),
        log: silentLog,
        ownerToken: 'lifecycle-owner-token-0123456789',
      }),
  },
])('the $name server on a port already taken', ({ start }) => {
  it('fails its start with the listen error and leaves nothing running behind', async () => {
    const before = handles();
    const held = await heldPort();
    try {
      await expect(start(held.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await held.release();
    }
    // Whatever the failed start built was undone: no listener (the simulator's), socket (the
    // daemon connection, the state stream) or timer (a reconnect, a sampler) of its own is left.
    await settlesTo(before);
  });
});
