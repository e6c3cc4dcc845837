import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import { silentLog } from '../log.ts';
import { startSimDaemon } from '../sim/index.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { createMoveEvents, type MoveEvents } from './move-events.ts';
import { until } from './testing/rig.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A stand-in for /api/move/ws/updates whose sockets the test controls. */
async function fakeUpdates(
  options: { autoPong?: boolean } = {},
): Promise<{ url: string; sockets: WebSocket[]; wss: WebSocketServer }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  await new Promise((resolve) => wss.once('listening', resolve));
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => sockets.push(ws));
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  return { url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`, sockets, wss };
}

/** Moves as the daemon names them: by a UUID (docs/daemon.md). */
const M1 = '6f1c2a4e-0b3d-4c55-9a1e-000000000001';
const M2 = '6f1c2a4e-0b3d-4c55-9a1e-000000000002';
const M9 = '6f1c2a4e-0b3d-4c55-9a1e-000000000009';

function track(events: MoveEvents): MoveEvents {
  cleanups.push(() => events.stop());
  return events;
}

describe('move events against the simulator', () => {
  it('tracks running moves and how each one ended', async () => {
    const sim = await startSimDaemon();
    const daemon = new HttpDaemonClient({ baseUrl: sim.url });
    cleanups.push(
      () => sim.close(),
      () => daemon.close(),
    );
    const events = track(createMoveEvents({ daemon, log: silentLog }));
    events.start();
    await until(() => sim.counters().updatesWsClients === 1);
    const quick = await daemon.goto({ head_pose: { yaw: 0.1 }, duration: 0.2 });
    expect(await events.whenEnded(quick, 2000)).toBe('completed');
    const slow = await daemon.goto({ head_pose: { yaw: -0.1 }, duration: 5 });
    await until(() => events.running().includes(slow));
    await daemon.stopMove(slow);
    expect(await events.whenEnded(slow, 2000)).toBe('cancelled');
    expect(events.running()).toEqual([]);
    // A waiter that comes after the end still learns it.
    expect(await events.whenEnded(quick, 10)).toBe('completed');
  });
});

describe('move events: reconnects and fallbacks', () => {
  it('reconnects after the socket drops and settles moves that ended meanwhile', async () => {
    const server = await fakeUpdates();
    let list = [M1];
    const events = track(
      createMoveEvents({ daemon: { baseUrl: server.url, runningMoves: async () => list }, log: silentLog }),
    );
    events.start();
    await until(() => server.sockets.length === 1 && events.connected());
    server.sockets[0]?.send(JSON.stringify({ type: 'move_started', uuid: M2, details: '' }));
    await until(() => events.running().length === 2);
    const ended = events.whenEnded(M1, 5000);
    list = [M2];
    server.sockets[0]?.terminate();
    await until(() => server.sockets.length === 2 && events.connected(), 5000);
    expect(await ended).toBe('gone');
    expect(events.running()).toEqual([M2]);
    server.sockets[1]?.send(JSON.stringify({ type: 'move_failed', uuid: M2, details: 'Backend not running' }));
    expect(await events.whenEnded(M2, 1000)).toBe('failed');
  });

  it('tells listeners of a move first found in /running after a reconnect as started', async () => {
    const server = await fakeUpdates();
    let list: string[] = [];
    const events = track(
      createMoveEvents({ daemon: { baseUrl: server.url, runningMoves: async () => list }, log: silentLog }),
    );
    const started: string[] = [];
    events.onEvent((event) => {
      if (event.type === 'move_started') started.push(event.uuid);
    });
    events.start();
    await until(() => server.sockets.length === 1 && events.connected());
    // The daemon starts M1 while the socket is down: its start event reaches no one.
    list = [M1];
    server.sockets[0]?.terminate();
    await until(() => server.sockets.length === 2 && events.running().includes(M1), 5000);
    expect(started).toEqual([M1]);
    // Found again at the next reconnect, it is not told again.
    server.sockets[1]?.terminate();
    await until(() => server.sockets.length === 3 && events.connected(), 5000);
    server.sockets[2]?.send(JSON.stringify({ type: 'move_started', uuid: M2, details: '' }));
    await until(() => started.includes(M2));
    expect(started).toEqual([M1, M2]);
  });

  it('takes only events of a documented type about a move named by a UUID', async () => {
    const server = await fakeUpdates();
    const events = track(
      createMoveEvents({ daemon: { baseUrl: server.url, runningMoves: async () => [] }, log: silentLog }),
    );
    const seen: { uuid: unknown }[] = [];
    events.onEvent((event) => seen.push(event));
    events.start();
    await until(() => server.sockets.length === 1 && events.connected());
    const socket = server.sockets[0]!;
    for (const frame of [
      'null',
      '[]',
      '"move_started"',
      '{not json',
      JSON.stringify({ type: 'move_started', uuid: 'm1', details: '' }),
      JSON.stringify({ type: 'move_started', uuid: `${M1}/../stop`, details: '' }),
      JSON.stringify({ type: 'move_started', uuid: 7, details: '' }),
      JSON.stringify({ type: 'constructor', uuid: M1, details: '' }),
      JSON.stringify({ type: '__proto__', uuid: M1, details: '' }),
      JSON.stringify({ type: 'move_paused', uuid: M1, details: '' }),
    ])
      socket.send(frame);
    socket.send(JSON.stringify({ type: 'move_started', uuid: M2, details: { odd: true } }));
    await until(() => seen.at(-1)?.uuid === M2);
    // Only M2 is running: an odd frame that had counted would be here too, and STOP would send it.
    expect(events.running()).toEqual([M2]);
    expect(seen).toEqual([{ type: 'move_started', uuid: M2, details: '' }]);
    socket.send(JSON.stringify({ type: 'move_completed', uuid: M2, details: 'done' }));
    expect(await events.whenEnded(M2, 1000)).toBe('completed');
  });

  it('reads from /running only the moves named by a UUID', async () => {
    const odd = [{ uuid: M1 }, null, 7, M2, { uuid: 5 }, { uuid: 'undefined' }, { uuid: `${M2} ` }, { uuid: M9 }];
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(odd)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const daemon = new HttpDaemonClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    cleanups.push(() => daemon.close());
    // A null entry threw; a uuid of another type became the string 'undefined' or '5', sent back by STOP.
    expect(await daemon.runningMoves()).toEqual([M1, M9]);
  });

  it('ends a socket that stops answering pings, reconnects, and learns from /running what ended meanwhile', async () => {
    // A daemon whose machine went away: its socket stays open and says nothing (pings unanswered).
    const server = await fakeUpdates({ autoPong: false });
    const clock = createManualClock();
    let list = [M1];
    const events = track(
      createMoveEvents({
        daemon: { baseUrl: server.url, runningMoves: async () => list },
        log: silentLog,
        pingMs: 5000,
        clock,
      }),
    );
    events.start();
    await until(() => server.sockets.length === 1 && events.connected() && events.running().length === 1);
    const ended = events.whenEnded(M1, 60_000);
    const pinged = new Promise((resolve) => server.sockets[0]!.once('ping', resolve));
    clock.advance(5000);
    await pinged;
    list = [];
    // The next beat finds the ping unanswered: the socket is ended and opened again.
    clock.advance(5000);
    await until(() => !events.connected());
    clock.advance(5000);
    await until(() => server.sockets.length === 2 && events.connected());
    expect(await ended).toBe('gone');
  });

  it('keeps a socket that answers its pings', async () => {
    const server = await fakeUpdates();
    const clock = createManualClock();
    const events = track(
      createMoveEvents({ daemon: { baseUrl: server.url, runningMoves: async () => [] }, log: silentLog, clock }),
    );
    let heard = 0;
    events.onEvent(() => (heard += 1));
    events.start();
    await until(() => server.sockets.length === 1 && events.connected());
    const socket = server.sockets[0]!;
    for (let beat = 1; beat <= 3; beat += 1) {
      const pinged = new Promise((resolve) => socket.once('ping', resolve));
      clock.advance(5000);
      await pinged;
      // The pong went out before this event, on the same socket: once the event is heard, so is the pong.
      socket.send(JSON.stringify({ type: 'move_started', uuid: M1, details: '' }));
      await until(() => heard === beat);
    }
    clock.advance(5000);
    socket.send(JSON.stringify({ type: 'move_started', uuid: M2, details: '' }));
    await until(() => events.running().includes(M2));
    expect(server.sockets.length).toBe(1);
    expect(events.connected()).toBe(true);
  });

  it('polls /running while no socket can be opened, and times out when that fails too', async () => {
    const server = await fakeUpdates();
    const url = server.url;
    await new Promise<void>((resolve) => server.wss.close(() => resolve()));
    let list = [M1];
    let down = false;
    const runningMoves = async () => {
      if (down) throw new Error('unreachable');
      return list;
    };
    const events = track(createMoveEvents({ daemon: { baseUrl: url, runningMoves }, log: silentLog, pollMs: 20 }));
    events.start();
    const ended = events.whenEnded(M1, 5000);
    list = [];
    expect(await ended).toBe('gone');
    down = true;
    expect(await events.whenEnded(M9, 100)).toBe('timeout');
  });
});
