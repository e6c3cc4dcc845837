/**
 * Integration rig for the agent: the in-process simulator, a robot core, the real Control, the
 * event log, the composed agent over a temp data folder, a fake model server, and a minimal
 * the desktop server on 127.0.0.1:0 carrying the given routes behind a test caller (the real access gate
 * is tested on its own). `reopen()` builds a second agent over the same folder (a restart).
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventLog, type EventLog } from '../../desktop/event-log.ts';
import { createRobotCore, type RobotCore } from '../../desktop/robot-core.ts';
import { errorHandler } from '../../http/error-handler.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { silentLog } from '../../log.ts';
import { createControl, type Control } from '../../motion/control.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createAgent, type Agent, type AgentDeps } from '../agent.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../providers/testing/fake-openai.ts';
import { objectSchema, type AgentTool } from '../tools/types.ts';

export interface AgentRig {
  sim: SimDaemon;
  robot: RobotCore;
  control: Control;
  events: EventLog;
  agent: Agent;
  fake: FakeOpenAi;
  /** Every frame the agent broadcast (agent_log) and every event receipt. */
  frames: Array<{ type: string }>;
  base: string;
  request(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  /** Stops this agent and builds another over the same data folder. */
  reopen(): Promise<Agent>;
  close(): Promise<void>;
}

export type RouteBuilder = (agent: Agent, control: Control) => RouteSpec[];

/** A stand-in for the platform client's use_device tool (recorded, never really run). */
export const fakeUseDevice: AgentTool = {
  name: 'use_device',
  description: 'reach another device of the fleet',
  inputSchema: objectSchema({ action: { type: 'string' } }, ['action']),
  run: async () => ({ ok: true, devices: [] }),
};

function buildApp(routes: () => RouteSpec[]): Koa {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  koa.use(async (ctx, next) => {
    const kind = ctx.get('x-test-kind') || 'token';
    (ctx.state as { caller: unknown }).caller = {
      kind,
      local: false,
      failed: false,
      viaBearer: true,
      viaCookie: false,
    };
    await next();
  });
  // Routes are looked up per request so that reopen() swaps the agent behind the same server.
  const router = new Router();
  for (const method of ['get', 'post', 'put'] as const) {
    router[method]('/{*path}', async (ctx) => {
      const route = routes().find((r) => r.method === method.toUpperCase() && r.path === ctx.path);
      if (!route?.handler) return;
      await route.handler(ctx);
    });
  }
  koa.use(router.routes());
  return koa;
}

interface Robot {
  dataDir: string;
  robot: RobotCore;
  control: Control;
  events: EventLog;
  frames: AgentRig['frames'];
}

async function makeAgent(r: Robot, tuning: AgentDeps['tuning']): Promise<Agent> {
  const agent = createAgent({
    dataDir: r.dataDir,
    control: r.control,
    robot: r.robot,
    broadcast: (f) => r.frames.push(f),
    recentEvents: (limit) => r.events.recent(limit),
    snapshot: async () => Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
    fleetTools: () => [fakeUseDevice],
    log: silentLog,
    ...(tuning ? { tuning } : {}),
  });
  await agent.start();
  return agent;
}

async function startRobot(dataDir: string): Promise<Robot & { sim: SimDaemon }> {
  const sim = await startSimDaemon();
  const robot = createRobotCore({ daemonUrl: sim.url, simulated: true, log: silentLog });
  robot.start();
  const frames: AgentRig['frames'] = [];
  const events = createEventLog({ broadcast: (f) => frames.push(f) });
  const control = createControl({ robot, emit: (e) => events.emit(e), log: silentLog });
  control.start();
  return { sim, dataDir, robot, control, events, frames };
}

async function listen(koa: Koa): Promise<{ server: Server; base: string }> {
  const server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function startAgentRig(options: {
  routes: RouteBuilder;
  tuning?: AgentDeps['tuning'];
}): Promise<AgentRig> {
  const dir = await makeTempDir('rc-agent-');
  const r = await startRobot(dir.dir);
  const fake = await startFakeOpenAi();
  let agent = await makeAgent(r, options.tuning);
  const { server, base } = await listen(buildApp(() => options.routes(agent, r.control)));
  return {
    ...r,
    fake,
    base,
    get agent() {
      return agent;
    },
    async request(method, path, body) {
      const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const res = await fetch(`${base}${path}`, init);
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    async reopen() {
      await agent.stop();
      agent = await makeAgent(r, options.tuning);
      return agent;
    },
    async close() {
      await agent.stop();
      await new Promise((resolve) => server.close(resolve));
      r.control.close();
      await r.robot.stop();
      await fake.close();
      await r.sim.close();
      await dir.cleanup();
    },
  };
}
