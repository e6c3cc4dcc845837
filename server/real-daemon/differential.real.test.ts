/**
 * Differential test: the same requests to the pinned real daemon and to the simulator, compared
 * on status codes, JSON keys, types and nullability, error bodies, WebSocket frame shapes, the
 * move-event sequences of a goto, and the route list. The simulator is corrected wherever they
 * differ; `npm run record-fixtures` keeps the real side for the simulator's own tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { compareProbes } from './probe-compare.ts';
import { probeDaemon, type Probe } from './probe.ts';
import { startRealDaemon, type RealDaemon } from './process.ts';
import { realDaemonInstall } from './testing/installed.ts';
import { DAEMON_START_MS } from './testing/real-rig.ts';

const install = realDaemonInstall('mockup');
if (!install.installed && install.required) {
  it('the real daemon is installed for CI', () => {
    throw new Error(install.failure);
  });
}

describe.skipIf(!install.installed)(`simulator versus the real daemon (${install.note})`, () => {
  let real: RealDaemon;
  let sim: SimDaemon;
  let realProbe: Probe;
  let simProbe: Probe;

  beforeAll(async () => {
    [real, sim] = await Promise.all([
      startRealDaemon({ paths: install.paths, readyTimeoutMs: DAEMON_START_MS }),
      startSimDaemon({ port: 0 }),
    ]);
    realProbe = await probeDaemon(real.url);
    simProbe = await probeDaemon(sim.url);
  }, DAEMON_START_MS + 60_000);
  afterAll(async () => {
    await sim?.close();
    await real?.close();
  });

  it('answers every probed request alike', () => {
    expect(compareProbes(realProbe, simProbe)).toEqual([]);
  });

  it('tells the move events of a goto in the same order', () => {
    expect(realProbe.ws.gotoEvents).toEqual(['move_started', 'move_completed']);
    expect(realProbe.ws.stoppedEvents).toEqual(['move_started', 'move_cancelled']);
  });
});
