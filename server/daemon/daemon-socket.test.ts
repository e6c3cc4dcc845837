/**
 * The daemon's sockets take frames of the daemon's size (daemon-socket.ts): a frame over 1 MiB
 * closes the socket and the state feed reconnects and goes on; a log stream that floods ends its
 * read at 8 MiB with what came, instead of gathering until it goes quiet.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { readLogStream } from '../apps/app-logs.ts';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import type { DaemonClient } from './daemon-client.ts';
import { DAEMON_FRAME_LIMIT } from './daemon-socket.ts';
import { StateFeed, type FeedSnapshot } from './state-feed.ts';
import type { DaemonStatus } from './wire.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function daemonServer() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const sockets: WebSocket[] = [];
  server.on('connection', (ws) => sockets.push(ws));
  return { sockets, port: (server.address() as AddressInfo).port };
}

it('closes a state socket that sends a frame over 1 MiB, reconnects, and takes the next good frame', async () => {
  const { sockets, port } = await daemonServer();
  const running = { type: 'daemon_status', state: 'running', version: '1.13.0' } as DaemonStatus;
  const daemon = { baseUrl: `http://127.0.0.1:${port}`, status: async () => running } as unknown as DaemonClient;
  const clock = createManualClock();
  const feed = new StateFeed({ daemon, log: silentLog, clock });
  cleanups.push(() => feed.stop());
  const samples: FeedSnapshot['sample'][] = [];
  feed.onSample((sample) => void samples.push(sample));
  feed.start();
  const frame = (yaw: number, pad = '') =>
    JSON.stringify({ head_pose: { yaw }, body_yaw: 0, antennas_position: [0, 0], timestamp: `t${yaw}`, pad });

  await eventually(() => sockets.length === 1, { what: 'the first state socket' });
  const first = sockets[0]!;
  first.send(frame(0.1));
  await eventually(() => samples.length === 1, { what: 'the first frame' });

  const closed = new Promise<number>((resolve) => first.once('close', resolve));
  first.send(frame(0.2, 'x'.repeat(DAEMON_FRAME_LIMIT)));
  expect(await closed).toBe(1009);
  // The feed reconnects after its backoff, on its clock.
  await eventually(
    () => {
      clock.advance(250);
      return sockets.length === 2;
    },
    { what: 'the state socket opened again' },
  );
  sockets[1]!.send(frame(0.3));
  await eventually(() => samples.length === 2, { what: 'the frame after the reconnect' });
  expect(samples.map((s) => s?.state.timestamp)).toEqual(['t0.1', 't0.3']);
});

it('ends a log stream read at 8 MiB when the stream floods without going quiet', async () => {
  const { sockets, port } = await daemonServer();
  // Quiet and overall limits far away: only the size can end this read.
  const read = readLogStream(`ws://127.0.0.1:${port}/logs/ws/daemon`, 600_000, 600_000);
  await eventually(() => sockets.length === 1, { what: 'the log socket' });
  const line = 'l'.repeat(512 * 1024 - 1);
  let sent = 0;
  const socket = sockets[0]!;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // 40 lines of 512 KiB: 20 MiB offered, sent one after another until the reader hangs up.
  while (sent < 40 && socket.readyState === socket.OPEN) {
    await new Promise<void>((resolve) => socket.send(line, () => resolve()));
    sent += 1;
  }
  const result = await read;
  await closed;
  expect(result.ok).toBe(true);
  const lines = result.ok ? result.stdout.split('\n') : [];
  // The line that brings the read to 8 MiB is the last one taken: 17 lines of 512 KiB less a byte.
  expect(lines.length).toBe(17);
  expect(lines.every((l) => l === line)).toBe(true);
});
