/**
 * The WHEN logic on a fake clock: one health sample per second, events at chosen instants.
 */
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../auth/testing/fake-clock.ts';
import type { PushNotice } from './kinds.ts';
import { createPushTriggers, duration, type HealthSample, type TriggerTimings } from './push-triggers.ts';

const UP: HealthSample = { daemon: 'up', where: 'the simulator', camera: 'live' };
const DOWN: HealthSample = { daemon: 'unreachable', where: 'the simulator', camera: 'lost' };
const STOPPED: HealthSample = { daemon: 'stopped', where: 'http://127.0.0.1:8000', camera: 'lost' };
const NO_CAMERA: HealthSample = { ...UP, camera: 'lost' };

type Step = [fromSecond: number, toSecond: number, sample: HealthSample];

/** Feeds one sample per second over each span; returns "<second>s <title>" for every notice. */
function run(steps: Step[], timings: Partial<TriggerTimings> = {}): string[] {
  const clock = createFakeClock(0);
  const triggers = createPushTriggers(timings);
  const out: string[] = [];
  for (const [from, to, sample] of steps) {
    for (let s = from; s <= to; s += 1) {
      clock.set(s * 1000);
      out.push(...triggers.observe(sample, clock.now()).map((n) => `${s}s ${n.title}`));
    }
  }
  return out;
}

describe('daemon outages', () => {
  it('says nothing for an outage shorter than 30 s', () => {
    expect(
      run([
        [0, 5, UP],
        [6, 34, DOWN],
        [35, 45, UP],
      ]),
    ).toEqual([]);
  });

  it('tells once after 30 s, then once when it has been back for a moment', () => {
    expect(
      run([
        [0, 5, UP],
        [6, 90, DOWN],
        [91, 100, UP],
      ]),
    ).toEqual(['36s Robot daemon unreachable', '94s Robot daemon back']);
  });

  it('counts from the first sample when the daemon never answered', () => {
    expect(run([[0, 31, DOWN]])).toEqual(['30s Robot daemon unreachable']);
  });

  it('treats a blip back up as part of the same outage (no second pair of notices)', () => {
    expect(
      run([
        [0, 40, DOWN],
        [41, 41, UP],
        [42, 80, DOWN],
        [81, 90, UP],
      ]),
    ).toEqual(['30s Robot daemon unreachable', '84s Robot daemon back']);
  });

  it('starts counting again after a short outage ended', () => {
    expect(
      run([
        [0, 20, DOWN],
        [21, 21, UP],
        [22, 52, DOWN],
      ]),
    ).toEqual(['52s Robot daemon unreachable']);
  });

  it('names a stopped backend, and how long the outage lasted when it is back', () => {
    const clock = createFakeClock(0);
    const triggers = createPushTriggers();
    const notices: PushNotice[] = [];
    for (let s = 0; s <= 200; s += 1) {
      clock.set(s * 1000);
      notices.push(...triggers.observe(s < 150 ? STOPPED : { ...UP, where: STOPPED.where }, clock.now()));
    }
    expect(notices).toEqual([
      {
        kind: 'daemon',
        title: 'Robot daemon stopped',
        body: 'The robot daemon (http://127.0.0.1:8000) answers, but its backend has been stopped for over 30 s.',
        url: '/',
        tag: 'daemon',
        urgent: true,
      },
      {
        kind: 'daemon',
        title: 'Robot daemon back',
        body: 'The cockpit is talking to http://127.0.0.1:8000 again, after 3 min without it.',
        url: '/',
        tag: 'daemon',
      },
    ]);
  });

  it('follows shorter thresholds when given', () => {
    expect(
      run(
        [
          [0, 2, DOWN],
          [3, 5, UP],
        ],
        { daemonAfterMs: 1000, daemonBackAfterMs: 0 },
      ),
    ).toEqual(['1s Robot daemon unreachable', '3s Robot daemon back']);
  });
});

describe('camera', () => {
  it('tells after 5 s without pictures, once, and not for a shorter gap', () => {
    expect(
      run([
        [0, 3, UP],
        [4, 7, NO_CAMERA],
        [8, 10, UP],
        [11, 30, NO_CAMERA],
      ]),
    ).toEqual(['16s Camera lost']);
  });

  it('re-arms only after the camera has been live again for a while', () => {
    const flapping: Step[] = [
      [0, 10, NO_CAMERA],
      [11, 12, UP],
      [13, 30, NO_CAMERA],
      [31, 40, UP],
      [41, 50, NO_CAMERA],
    ];
    expect(run(flapping)).toEqual(['5s Camera lost', '46s Camera lost']);
  });

  it('leaves a camera lost with the daemon to the daemon notice', () => {
    expect(run([[0, 40, DOWN]])).toEqual(['30s Robot daemon unreachable']);
  });

  it('ignores a camera that is off on purpose', () => {
    expect(run([[0, 60, { ...UP, camera: 'off' }]])).toEqual([]);
  });
});

describe('events', () => {
  it('pushes a stop to everyone but the presser, only when the latch engages, spaced out', () => {
    const triggers = createPushTriggers();
    const first = triggers.event({ type: 'stop', credential: 'cred-phone', by: 'passkey' }, 0);
    expect(first).toEqual([
      {
        kind: 'stop',
        title: 'STOP engaged',
        body: 'A signed-in browser or phone engaged the latched stop. The robot will not move until someone resumes from the dashboard.',
        url: '/',
        tag: 'stop',
        exceptCredential: 'cred-phone',
        urgent: true,
      },
    ]);
    // Pressed again while latched: nothing new to tell.
    expect(triggers.event({ type: 'stop', credential: 'token', by: 'token' }, 1000)).toEqual([]);
    triggers.event({ type: 'resume' }, 2000);
    // Stop, resume, stop within 10 s: one notice is enough.
    expect(triggers.event({ type: 'stop', credential: 'token', by: 'token' }, 3000)).toEqual([]);
    triggers.event({ type: 'resume' }, 4000);
    const later = triggers.event({ type: 'stop', credential: 'local-window', by: 'local-window' }, 20_000);
    expect(later.map((n) => [n.body.split(' engaged')[0], n.exceptCredential])).toEqual([
      ['The desktop app', 'local-window'],
    ]);
  });

  it('pushes a finished turn only when no dashboard is open, spaced out', () => {
    const triggers = createPushTriggers();
    const turn = { type: 'turn', persona: 'dashboard', ok: true, text: 'It is sunny.' } as const;
    expect(triggers.event({ ...turn, viewers: 1 }, 0)).toEqual([]);
    expect(triggers.event({ ...turn, viewers: 0 }, 1000)).toEqual([
      { kind: 'agent', title: 'Ask finished', body: 'It is sunny.', url: '/#/agent', tag: 'agent' },
    ]);
    expect(triggers.event({ ...turn, viewers: 0 }, 5000)).toEqual([]);
    const failed = triggers.event(
      { type: 'turn', persona: 'fleet', ok: false, text: 'model timeout', viewers: 0 },
      12_000,
    );
    expect(failed.map((n) => `${n.title}: ${n.body}`)).toEqual(['Fleet turn failed: model timeout']);
  });

  it('passes every platform notice on under its own tag', () => {
    const triggers = createPushTriggers();
    const notice = { type: 'notice', title: 'Job done', body: 'Nightly', tag: 'job', url: '/jobs' } as const;
    expect(triggers.event(notice, 0)).toEqual([
      { kind: 'platform', title: 'Job done', body: 'Nightly', url: '/jobs', tag: 'platform:job' },
    ]);
    expect(triggers.event(notice, 1)).toHaveLength(1);
  });
});

it('says durations as a person would', () => {
  expect([duration(400), duration(45_000), duration(180_000), duration(7_500_000)]).toEqual([
    '0 s',
    '45 s',
    '3 min',
    '2 h 5 min',
  ]);
});
