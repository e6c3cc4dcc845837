/**
 * State frames the feed cannot use, from a daemon socket the test writes to: frames arrive in
 * order on one socket, so a good frame sent after a bad one proves the bad one was read. A frame
 * that is not JSON or whose head pose cannot be read leaves the last good state in place and says
 * why; members of the wrong type are read as absent (full-state.ts).
 */
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import type { DaemonClient } from './daemon-client.ts';
import { StateFeed, type FeedSnapshot } from './state-feed.ts';
import type { DaemonStatus } from './wire.ts';

const RUNNING = {
  type: 'daemon_status',
  state: 'running',
  version: '1.13.0',
  robot_name: 'reachy_mini',
} as DaemonStatus;

let server: WebSocketServer;
let daemonSocket: Promise<WebSocket>;
let feed: StateFeed;
const samples: FeedSnapshot['sample'][] = [];

beforeEach(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  daemonSocket = new Promise((resolve) => server.once('connection', resolve));
  const { port } = server.address() as AddressInfo;
  // Only what the feed reads of a daemon: its address and its status.
  const daemon = { baseUrl: `http://127.0.0.1:${port}`, status: async () => RUNNING } as unknown as DaemonClient;
  feed = new StateFeed({ daemon, log: silentLog, clock: createManualClock() });
  samples.length = 0;
  feed.onSample((sample) => void samples.push(sample));
  feed.start();
});
afterEach(async () => {
  feed.stop();
  await new Promise((resolve) => server.close(resolve));
});

const frame = (yaw: number, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ head_pose: { yaw }, body_yaw: 0, antennas_position: [0, 0], timestamp: `t${yaw}`, ...extra });

describe('the state feed, given frames it cannot use', () => {
  it('keeps the last good state and says why; a later good frame is taken', async () => {
    const socket = await daemonSocket;
    socket.send(frame(0.1));
    await eventually(() => samples.length === 1, { what: 'the first frame' });

    socket.send('{"head_pose": ');
    socket.send(frame(0.2));
    await eventually(() => samples.length === 2, { what: 'the frame after one that is not JSON' });
    expect(feed.snapshot().lastError).toBe('daemon sent a state frame that is not JSON');

    for (const head_pose of [5, 'x', { m: 'x' }, { yaw: 'x' }])
      socket.send(JSON.stringify({ head_pose, timestamp: 'bad' }));
    socket.send(frame(0.3));
    await eventually(() => samples.length === 3, { what: 'the frame after the unreadable head poses' });
    expect(samples.map((s) => s?.state.timestamp)).toEqual(['t0.1', 't0.2', 't0.3']);
    expect(feed.snapshot().lastError).toBe(
      'daemon sent a state frame that is not understood: its head_pose is not a pose',
    );

    socket.send(frame(0.4, { body_yaw: 'x', antennas_position: 'ab', doa: 5, control_mode: 7 }));
    await eventually(() => samples.length === 4, { what: 'the frame with members of the wrong type' });
    expect(samples[3]?.state).toMatchObject({
      head_pose: { yaw: 0.4 },
      body_yaw: null,
      antennas_position: null,
      doa: null,
      control_mode: null,
    });
  });
});
