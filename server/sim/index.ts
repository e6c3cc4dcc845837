/**
 * The built-in simulated robot daemon: the real daemon's HTTP + WebSocket protocol
 * (docs/daemon.md) over a 50 Hz simulated body, plus /sim/* controls for tests
 * (README-sim.md). It binds 127.0.0.1 only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { systemClock, type TimerClock } from '../clock.ts';
import { silentLog, type Log } from '../log.ts';
import { startSimCamera, type SimCamera } from './camera.ts';
import { createSimContext, type SimCounters } from './context.ts';
import { createRequestHandler } from './server.ts';
import { createSimSockets } from './ws.ts';

export type { SimCounters } from './context.ts';
export type { SoundPlay } from './sounds.ts';

export interface SimDaemonOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Camera signalling port (8443 on the robot); default 0: a free port. */
  cameraPort?: number;
  log?: Log;
  /**
   * The simulator's time: the 50 Hz control loop, moves, state streams, faults and every delay.
   * The real clock by default; a test hands in a manual one (server/testing/manual-clock.ts) and
   * moves the body tick by tick. The camera's media pipeline keeps real time.
   */
  clock?: TimerClock;
}

export interface SimDaemon {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** `ws://127.0.0.1:<port>`: the camera's webrtcsink-style signalling server (README-sim.md). */
  readonly cameraSignallingUrl: string;
  /** A copy of the activity counters at the time of the call. */
  counters(): SimCounters;
  /** Closes every socket and stops the loop; idempotent. */
  close(): Promise<void>;
}

/** The daemon's control loop runs at 50 Hz (docs/daemon.md, "What differed in the simulator, and what changed"). */
const TICK_MS = 20;

/**
 * The control loop: a tick every TICK_MS on the clock. Due times are counted from the start, so
 * a late tick does not push the later ones back; ticks missed while the process was busy are
 * skipped, not run in a burst (as setInterval behaves).
 */
function startLoop(clock: TimerClock, tick: () => void): { stop(): void } {
  const start = clock.now();
  let count = 0;
  let cancel = (): void => {};
  const next = (): void => {
    count = Math.max(count + 1, Math.floor((clock.now() - start) / TICK_MS) + 1);
    cancel = clock.schedule(() => {
      tick();
      next();
    }, start + count * TICK_MS - clock.now());
  };
  next();
  return { stop: () => cancel() };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts a simulated daemon; it is awake, motors enabled, at the neutral pose. */
export async function startSimDaemon(options: SimDaemonOptions = {}): Promise<SimDaemon> {
  const log = (options.log ?? silentLog).child('sim');
  const clock = options.clock ?? systemClock;
  const ctx = createSimContext(log, clock);
  const server = createServer(createRequestHandler(ctx));
  // Like uvicorn: idle keep-alive connections are closed after 5 s (docs/daemon.md, "Duties of the cockpit").
  server.keepAliveTimeout = 5000;
  const sockets = createSimSockets(ctx);
  // Upgrades held by the hang fault are no longer HTTP connections: close() ends them itself.
  const held = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    if (!ctx.faults.hang) return sockets.handleUpgrade(req, socket, head);
    held.add(socket);
    socket.once('close', () => held.delete(socket));
  });
  const loop = startLoop(clock, () => ctx.tick());
  let port: number;
  let camera: SimCamera;
  try {
    camera = await startSimCamera(ctx, { port: options.cameraPort ?? 0, log });
    port = await listen(server, options.port ?? 0).catch(async (error: unknown) => {
      await camera.close();
      throw error;
    });
  } catch (error) {
    loop.stop();
    ctx.timers.clear();
    throw error;
  }
  log.info('simulated daemon listening', { port });

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      loop.stop();
      ctx.timers.clear();
      sockets.close();
      for (const socket of held) socket.destroy();
      const httpClosed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      void Promise.all([httpClosed, camera.close()]).then(() => resolve());
    });
    return closing;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cameraSignallingUrl: camera.url,
    counters: () => ctx.snapshotCounters(),
    close,
  };
}
