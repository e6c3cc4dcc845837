/**
 * The control routes over a simulated daemon, shared by control-routes.test.ts and
 * control-routes-say-stop.test.ts: a tiny server with the error handler and a test caller.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RobotState } from '../../../contract/state.ts';
import { HttpDaemonClient, type DaemonClient } from '../../../daemon/daemon-client.ts';
import { errorHandler } from '../../../http/error-handler.ts';
import type { RouteSpec } from '../../../http/route-table.ts';
import { silentLog } from '../../../log.ts';
import { createControl, type Control } from '../../../motion/control.ts';
import type { Receipt } from '../../../motion/receipts.ts';
import { recordingHolds, until } from '../../../motion/testing/rig.ts';
import { startSimDaemon, type SimDaemon } from '../../../sim/index.ts';
import { createManualClock } from '../../../testing/manual-clock.ts';
import { createRobotCore, type RobotCore } from '../../robot-core.ts';
import { controlRoutes } from '../control-routes.ts';
/** Records every daemon call, so a test can prove a refused request reached nothing. */
function spyDaemon(inner: DaemonClient): { daemon: DaemonClient; calls: string[] } {
  const calls: string[] = [];
  const daemon = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { daemon, calls };
}

/** A tiny desktop server: error handler, a test caller (the access gate is tested elsewhere), the routes. */
function buildApp(routes: RouteSpec[]): Koa {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  koa.use(async (ctx, next) => {
    const kind = ctx.get('x-test-kind') || 'token';
    if (kind !== 'none')
      (ctx.state as { caller: unknown }).caller = {
        kind,
        local: false,
        failed: false,
        viaBearer: kind === 'token',
        viaCookie: false,
      };
    await next();
  });
  const router = new Router();
  for (const r of routes) router.post(r.path, r.handler as Koa.Middleware);
  koa.use(router.routes()).use(router.allowedMethods());
  return koa;
}

// Live bindings: set by the hooks below, read by the test files that import them.
export let sim: SimDaemon;
export let robot: RobotCore;
export let control: Control;
let server: Server;
let base: string;
export let spy: { daemon: DaemonClient; calls: string[] };
const events: Receipt[] = [];
export const holds = recordingHolds();
/** The control's timing rules' time (volume debounce, joystick stream, end of a clip): tests move it by hand. */
export const controlClock = createManualClock();

/** Registers the file's hooks: one simulator, robot core, control and server for all its tests. */
export function useControlRoutesRig(): void {
  beforeAll(async () => {
    sim = await startSimDaemon();
    spy = spyDaemon(new HttpDaemonClient({ baseUrl: sim.url }));
    robot = createRobotCore({ daemonUrl: sim.url, simulated: true, log: silentLog, daemon: spy.daemon });
    robot.start();
    control = createControl({
      robot,
      emit: (e) => events.push(e),
      holds,
      log: silentLog,
      reel: { pauseMs: 100 },
      clock: controlClock,
    });
    control.start();
    server = buildApp(controlRoutes({ control })).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await until(() => robot.state() !== undefined && robot.feed.snapshot().presence === 'connected');
  });

  afterAll(async () => {
    control.close();
    await new Promise((resolve) => server.close(resolve));
    await robot.stop();
    await sim.close();
  });

  beforeEach(async () => {
    if (control.latch.engaged()) control.resume('token');
    await control.arbiter.stopAll();
  });
}

export async function post(
  path: string,
  body?: unknown,
  kind = 'token',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-kind': kind } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export const state = (): RobotState => robot.state() as RobotState;
export const simRunning = async (): Promise<unknown[]> =>
  (await (await fetch(`${sim.url}/api/move/running`)).json()) as unknown[];
export const lastEvent = (action: string): Receipt | undefined => events.filter((e) => e.action === action).at(-1);
/** Within half a degree: where toBeCloseTo(x, 0) draws the line. */
export const near = (value: number, target: number): boolean => Math.abs(value - target) < 0.5;
