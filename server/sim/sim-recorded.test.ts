/**
 * The simulator against the real daemon's recorded answers (server/sim/recorded/real-daemon.json,
 * written by `npm run record-fixtures` from the pinned release): the same probe, compared on
 * status codes, JSON shapes and nullability, error bodies, WebSocket frames, the move events of a
 * goto and the route list. Runs everywhere, with no Python: the live version of this comparison
 * is server/real-daemon/differential.real.test.ts.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_DAEMON_VERSION } from '../real-daemon/pin.ts';
import { compareProbes } from '../real-daemon/probe-compare.ts';
import { probeDaemon, type Probe } from '../real-daemon/probe.ts';
import { startSimDaemon, type SimDaemon } from './index.ts';

const recorded = JSON.parse(
  readFileSync(new URL('./recorded/real-daemon.json', import.meta.url), 'utf8'),
) as Probe & { recordedAt: string };

describe('simulator versus the recorded real daemon', () => {
  let sim: SimDaemon;
  let probe: Probe;

  beforeAll(async () => {
    sim = await startSimDaemon({ port: 0 });
    probe = await probeDaemon(sim.url);
  }, 30_000);
  afterAll(() => sim?.close());

  it('the recording is of the pinned release', () => {
    expect(recorded.version).toBe(REAL_DAEMON_VERSION);
    expect(recorded.answers.length).toBeGreaterThan(40);
  });

  it('answers every recorded request alike', () => {
    expect(compareProbes(recorded, probe)).toEqual([]);
  });

  it('serves only routes the real daemon has, and the move events of a goto in its order', () => {
    for (const route of probe.routes) expect(recorded.routes).toContain(route);
    expect(probe.ws.gotoEvents).toEqual(recorded.ws.gotoEvents);
    expect(probe.ws.stoppedEvents).toEqual(recorded.ws.stoppedEvents);
  });
});
