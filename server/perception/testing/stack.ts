/**
 * The perception stack wired as the desktop server wires it, over the in-process simulator: one robot
 * core (one daemon client, one state feed), motion control with the tracker as its holds, the
 * tracker and the turner. Tests read the truth from the simulator (/sim/status, the state).
 */
import type { RobotState } from '../../contract/state.ts';
import { createRobotCore, type RobotCore } from '../../desktop/robot-core.ts';
import { silentLog } from '../../log.ts';
import { createControl, type Control } from '../../motion/control.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { eventually, testWait } from '../../testing/eventually.ts';
import { createDoaTurner, type DoaTurner } from '../doa-turner.ts';
import { motionGate } from '../motion-gate.ts';
import { createTracking, trackingEngine, type TrackingController } from '../tracking.ts';

export interface SimStatus {
  backend: { state: string; ready: boolean };
  tracking: { enabled: boolean; weight: number };
}

export interface Stack {
  sim: SimDaemon;
  robot: RobotCore;
  control: Control;
  tracking: TrackingController;
  doa: DoaTurner;
  frames: Array<Record<string, unknown>>;
  state(): RobotState;
  simPost(path: string, body: unknown): Promise<SimStatus>;
  simStatus(): Promise<SimStatus>;
  close(): Promise<void>;
}

export async function startStack(options: { autostart?: boolean } = {}): Promise<Stack> {
  const sim = await startSimDaemon();
  const robot = createRobotCore({ daemonUrl: sim.url, simulated: true, log: silentLog });
  robot.start();
  const frames: Array<Record<string, unknown>> = [];
  const tracking = createTracking({
    daemon: robot.daemon,
    daemonState: () => robot.feed.snapshot().status?.state,
    engine: trackingEngine(true),
    autostart: options.autostart ?? true,
    log: silentLog,
    services: robot.services,
    broadcast: (f) => frames.push(f),
  });
  const control = createControl({ robot, emit: () => {}, holds: tracking, log: silentLog });
  control.start();
  const doa = createDoaTurner({
    feed: robot.feed,
    tracker: tracking,
    motion: motionGate(control),
    log: silentLog,
    services: robot.services,
    broadcast: (f) => frames.push(f),
  });
  await tracking.start();
  doa.start();
  const simPost = async (path: string, body: unknown): Promise<SimStatus> => {
    const res = await fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as SimStatus;
  };
  return {
    sim,
    robot,
    control,
    tracking,
    doa,
    frames,
    state: () => robot.state() as RobotState,
    simPost,
    simStatus: async () => (await (await fetch(`${sim.url}/sim/status`)).json()) as SimStatus,
    async close() {
      doa.stop();
      await tracking.stop();
      control.close();
      await robot.stop();
      await sim.close();
    },
  };
}

/** Polls until the predicate holds; throws with `what` when the time runs out. */
export async function waitFor(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
): Promise<void> {
  await eventually(predicate, { what, timeoutMs: testWait(timeoutMs), intervalMs: 50 });
}

