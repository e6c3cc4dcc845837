/** The self-test's pure parts: the tested daemon versions, the microphone's judgement, the runner's limits. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CameraFrame } from '../camera/frame.ts';
import type { CameraHealth, Pressure } from '../contract/health.ts';
import type { MotorMode, RobotState } from '../contract/state.ts';
import { releaseOf } from '../daemon/capabilities.ts';
import type { DaemonStatus } from '../daemon/wire.ts';
import { AppError } from '../errors.ts';
import { daemonChecks, versionTested } from './daemon-checks.ts';
import { hostChecks } from './host-checks.ts';
import { judgeCamera, judgeMicrophone, mediaChecks, measure } from './media-checks.ts';
import { motionCheck } from './motion-check.ts';
import { runCheck, runChecks } from './run-checks.ts';

describe('tested daemon versions', () => {
  it('reads release numbers and keeps the tested range (1.10 to the pinned 1.13)', () => {
    expect(releaseOf('1.10.0.dev0')).toEqual([1, 10, 0]);
    expect(releaseOf('1.12.0rc1')).toEqual([1, 12, 0]);
    expect(releaseOf('unknown')).toBeNull();
    expect(['1.10.0.dev0', '1.11.2', '1.12.0rc1', '1.13.0'].map(versionTested)).toEqual([true, true, true, true]);
    expect(['1.9.4', '1.14.0', '2.0.0', ''].map(versionTested)).toEqual([false, false, false, false]);
  });
});

describe('the camera judgement', () => {
  it('fails without a frame, warns under 5 fps, passes a steady picture', () => {
    const frame = { width: 640, height: 360 };
    expect(judgeCamera(undefined, { status: 'lost', fps: 0 })).toMatchObject({
      outcome: 'fail',
      detail: 'No camera frame arrived (camera lost).',
    });
    expect(
      judgeCamera(undefined, { status: 'starting', fps: 0, trouble: 'the camera did not start: refused' }),
    ).toMatchObject({
      outcome: 'fail',
      detail: 'No camera frame arrived (camera starting: the camera did not start: refused).',
    });
    expect(judgeCamera(frame, { status: 'live', fps: 3.2 })).toMatchObject({
      outcome: 'warn',
      detail: 'Frames arrive at only 3.2 fps (640×360).',
      values: { width: 640, height: 360, fps: 3.2 },
    });
    expect(judgeCamera(frame, { status: 'live', fps: 15 })).toMatchObject({ outcome: 'ok', values: { fps: 15 } });
    // A first frame before the rate is measured is not a slow camera.
    expect(judgeCamera(frame, { status: 'live', fps: 0 }).outcome).toBe('ok');
  });
});

describe('the microphone judgement', () => {
  it('fails all zeros, warns a very low level, passes a room', () => {
    expect(judgeMicrophone(measure(new Int16Array(48_000))).outcome).toBe('fail');
    const faint = new Int16Array(48_000).map((_, i) => (i % 2 ? 2 : -2));
    expect(judgeMicrophone(measure(faint)).outcome).toBe('warn');
    const room = new Int16Array(48_000).map((_, i) => Math.round(Math.sin(i) * 30));
    const ok = judgeMicrophone(measure(room));
    expect(ok.outcome).toBe('ok');
    expect((ok.values?.meter as number[]).length).toBe(30);
  });

  it('judges the level most of the time: a dead capture with sound still in the pipeline fails', () => {
    // 300 ms of room noise, then 2.7 s of zeros: the mean is lifted, the median is not.
    const tail = new Int16Array(48_000).map((_, i) => (i < 4800 ? Math.round(Math.sin(i) * 60) : 0));
    const judged = judgeMicrophone(measure(tail));
    expect(judged.outcome).toBe('fail');
    expect(judged.detail).toMatch(/digital silence/);
  });
});

describe('the check runner', () => {
  it('turns a throwing or hanging check into its own fail without holding the others', async () => {
    let released: (() => void) | undefined;
    const result = await runChecks([
      { id: 'fine', title: 'Fine', timeoutMs: 1000, run: async () => ({ outcome: 'ok', detail: 'fine' }) },
      { id: 'throws', title: 'Throws', timeoutMs: 1000, run: () => Promise.reject(new Error('boom')) },
      {
        id: 'hangs',
        title: 'Hangs',
        timeoutMs: 50,
        run: () => new Promise((resolve) => (released = () => resolve({ outcome: 'ok', detail: 'late' }))),
      },
    ]);
    released?.();
    expect(result.outcome).toBe('fail');
    expect(result.checks.map((c) => [c.id, c.outcome])).toEqual([
      ['fine', 'ok'],
      ['throws', 'fail'],
      ['hangs', 'fail'],
    ]);
    expect(result.checks[1]?.detail).toBe('The check failed: boom');
    expect(result.checks[2]?.detail).toBe('No answer within 0.05 s.');
  });
});

describe('the joint check on a slow daemon', () => {
  afterEach(() => void vi.useRealTimers());

  it('sends no move after its time ran out, when a step answers only then', async () => {
    vi.useFakeTimers();
    const moves: string[] = [];
    let testMoveAnswered!: () => void;
    const check = motionCheck({
      confirmed: true,
      appHolder: () => null,
      lockHolder: async () => null,
      headHolder: () => null,
      latched: () => false,
      stops: () => 0,
      testMove: () => {
        moves.push('test move');
        return new Promise<void>((resolve) => (testMoveAnswered = resolve));
      },
      home: async () => void moves.push('home'),
      currentMove: () => undefined,
      state: () => undefined,
    });
    const result = runCheck(check, Date.now);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await result).toMatchObject({ outcome: 'fail', detail: 'No answer within 15 s.' });
    // The daemon answers the test move after the result is out: the check stops there.
    testMoveAnswered();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(moves).toEqual(['test move']);
  });
});

describe('the joint check with the motors off', () => {
  it('does not move a head whose motors would not hold it, and says so', async () => {
    const moves: string[] = [];
    const check = (motorMode: MotorMode) =>
      motionCheck({
        confirmed: true,
        appHolder: () => null,
        lockHolder: async () => null,
        headHolder: () => null,
        latched: () => false,
        stops: () => 0,
        testMove: async () => void moves.push('test move'),
        home: async () => void moves.push('home'),
        currentMove: () => undefined,
        state: () => ({ motorMode, head: { yaw: 0 } }) as RobotState,
        stepMs: 1,
      });
    expect(await runCheck(check('disabled'), Date.now)).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: the motors are off (the robot sleeps), so the head would not hold a test move.',
      advice: 'Wake the robot, then check again.',
    });
    expect(await runCheck(check('gravity_compensation'), Date.now)).toMatchObject({ outcome: 'skipped' });
    expect(moves).toEqual([]);
  });
});

describe('the joint check and the STOP', () => {
  it('does not send the head home after a STOP during the test move, even once it was resumed', async () => {
    const moves: string[] = [];
    let stops = 0;
    const check = motionCheck({
      confirmed: true,
      appHolder: () => null,
      lockHolder: async () => null,
      headHolder: () => null,
      latched: () => false,
      stops: () => stops,
      testMove: async () => {
        moves.push('test move');
        // The operator presses STOP while the head turns, and resumes at once.
        stops += 1;
      },
      home: async () => void moves.push('home'),
      currentMove: () => undefined,
      state: () => undefined,
      stepMs: 1,
    });
    expect(await runCheck(check, Date.now)).toMatchObject({
      outcome: 'skipped',
      detail: 'Not finished: the STOP came during the check, so the head was not moved again.',
    });
    expect(moves).toEqual(['test move']);
  });
});

describe('a daemon that simulates the robot', () => {
  it('warns that the checks test the simulation, not a robot', async () => {
    const daemon = (status: Partial<DaemonStatus>) => ({
      status: async () => ({ state: 'running', version: '1.13.0', no_media: true, ...status }) as DaemonStatus,
      motorMode: async () => 'enabled',
      doa: async () => null,
      volume: async () => 50,
      playSound: async () => undefined,
    });
    const daemonCheck = (status: Partial<DaemonStatus>) =>
      runCheck(
        daemonChecks(daemon(status)).find((c) => c.id === 'daemon')!,
        Date.now,
      );
    expect(await daemonCheck({ simulation_enabled: true, mockup_sim_enabled: false })).toMatchObject({
      outcome: 'warn',
      detail:
        'Daemon 1.13.0 answers, but it simulates the robot (MuJoCo physics): these checks test the simulation, not a robot.',
      values: { physics: 'mujoco' },
    });
    expect(await daemonCheck({ simulation_enabled: false, mockup_sim_enabled: true })).toMatchObject({
      outcome: 'warn',
      values: { physics: 'mockup' },
    });
    expect(await daemonCheck({ simulation_enabled: false, mockup_sim_enabled: false })).toMatchObject({
      outcome: 'ok',
      detail: 'Daemon 1.13.0 answers and its backend runs.',
    });
  });
});

describe('a camera that is not the robot’s', () => {
  it('skips the camera for a synthetic test card, and the microphone for any camera but the daemon’s', async () => {
    const camera = {
      configured: true,
      snapshot: async () => ({ width: 640, height: 360, capturedAt: Date.now() + 1000 }) as CameraFrame,
      health: () => ({ status: 'live', fps: 15 }) as CameraHealth,
      // What the frame hub answers when the source has no microphone (server/camera/hub-taps.ts).
      listenMicrophone: () => ({ ok: false, error: 'the camera source (synthetic 640x360) has no robot microphone' }),
    } as unknown as Parameters<typeof mediaChecks>[0];
    const run = (source: 'synthetic' | 'device') =>
      Promise.all(mediaChecks(camera, 3, source).map((c) => runCheck(c, Date.now)));
    const synthetic = await run('synthetic');
    expect(synthetic.map((r) => [r.id, r.outcome])).toEqual([
      ['camera', 'skipped'],
      ['microphone', 'skipped'],
    ]);
    expect(synthetic[0]?.detail).toBe("The camera is a synthetic test card (ROBOT_CAMERA=synthetic), not the robot's.");
    const device = await run('device');
    expect(device.map((r) => [r.id, r.outcome])).toEqual([
      ['camera', 'ok'],
      ['microphone', 'skipped'],
    ]);
    expect(device[1]?.detail).toBe(
      "The robot's microphone comes only with the daemon's camera, and this cockpit's camera is a local capture device.",
    );
  });
});

describe('the clock check without the daemon’s time', () => {
  it('says the clocks could not be compared, never that they agree', async () => {
    const clock = (offset: () => Promise<number | null>) =>
      runCheck(
        hostChecks({
          dataDir: '/',
          pressure: () => ({}) as Pressure,
          daemonClockOffsetMs: offset,
          probes: { freeBytes: async () => 0, ntpSynchronized: async () => true },
        }).find((c) => c.id === 'clock')!,
        Date.now,
      );
    expect(await clock(async () => null)).toMatchObject({
      outcome: 'warn',
      detail:
        "Could not compare this computer's clock with the robot's: its state carries no readable timestamp. This computer's clock is synchronised (NTP).",
    });
    expect(await clock(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8000')))).toMatchObject({
      outcome: 'warn',
      detail:
        "Could not compare this computer's clock with the robot's: the daemon did not answer (connect ECONNREFUSED 127.0.0.1:8000). This computer's clock is synchronised (NTP).",
    });
    expect(await clock(async () => 300)).toMatchObject({
      outcome: 'ok',
      detail: "The clock is synchronised and agrees with the robot's.",
    });
  });
});

describe('the joint check and someone else at the controls', () => {
  it('does not take the head from its holder, before the test move or to send it home', async () => {
    const moves: string[] = [];
    let holder: string | null = 'the joystick';
    const check = () =>
      motionCheck({
        confirmed: true,
        appHolder: () => null,
        lockHolder: async () => null,
        headHolder: () => holder,
        latched: () => false,
        stops: () => 0,
        testMove: async () => void moves.push('test move'),
        home: () => {
          // The joystick took the head once the test move had ended.
          holder = 'the joystick';
          return Promise.reject(new AppError('CONFLICT', 'motion busy (joystick); home not started'));
        },
        currentMove: () => undefined,
        state: () =>
          ({
            motorMode: 'enabled',
            head: { yaw: 10, pitch: 0, roll: 0 },
            bodyYaw: 0,
            antennas: { right: 0, left: 0 },
          }) as RobotState,
        stepMs: 1,
      });
    expect(await runCheck(check(), Date.now)).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: the head is in use by the joystick.',
    });
    expect(moves).toEqual([]);
    holder = null;
    expect(await runCheck(check(), Date.now)).toMatchObject({
      outcome: 'ok',
      detail:
        'The head turned to 10°; every joint is within its limits. It was not sent back: the joystick took the head.',
    });
    expect(moves).toEqual(['test move']);
  });

  it('neither judges nor sends home a head another move took during the test move', async () => {
    const moves: string[] = [];
    // The arbiter's move: the check's own, then another user's look that cancelled it, then none.
    const current = ['self-test look', 'their look', 'their look'];
    const check = motionCheck({
      confirmed: true,
      appHolder: () => null,
      lockHolder: async () => null,
      headHolder: () => (moves.length > 0 && current.length > 0 ? 'a move in progress (look)' : null),
      latched: () => false,
      stops: () => 0,
      testMove: async () => {
        moves.push('test move');
        return { uuid: 'self-test look' };
      },
      home: async () => {
        moves.push('home');
        return { uuid: 'home' };
      },
      currentMove: () => current.shift(),
      // Where their look took the head: not the check's target.
      state: () =>
        ({
          motorMode: 'enabled',
          head: { yaw: -30, pitch: 0, roll: 0 },
          bodyYaw: 0,
          antennas: { right: 0, left: 0 },
        }) as RobotState,
      stepMs: 1,
    });
    expect(await runCheck(check, Date.now)).toMatchObject({
      outcome: 'skipped',
      detail:
        'Not finished: a move in progress (look) took the head during the test move, so it was not judged or sent home.',
    });
    expect(moves).toEqual(['test move']);
  });
});
