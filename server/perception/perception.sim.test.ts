/** Face tracking and turn-toward-speaker against the simulated daemon (README-sim.md). */
import { afterEach, describe, expect, it } from 'vitest';
import { startStack, waitFor, type Stack } from './testing/stack.ts';

let stack: Stack | undefined;

async function begin(options: { autostart?: boolean } = {}): Promise<Stack> {
  stack = await startStack(options);
  await waitFor('a first state', () => stack?.robot.state() !== undefined);
  return stack;
}

afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const near = (value: number, target: number, tolerance: number) => Math.abs(value - target) <= tolerance;

describe('face tracking on the simulator', () => {
  it('autostarts, and the head follows a moving face', async () => {
    const s = await begin();
    expect((await s.simStatus()).tracking).toEqual({ enabled: true, weight: 1 });
    await s.simPost('/sim/face', { yaw: 20, pitch: 0 });
    await waitFor('the head at the face (20°)', () => near(s.state().head.yaw, 20, 2));
    await waitFor('a detected face', () => s.tracking.status().detected);
    for (const yaw of [5, -10]) {
      await s.simPost('/sim/face', { yaw, pitch: 0 });
      await waitFor(`the head following to ${yaw}°`, () => near(s.state().head.yaw, yaw, 2));
    }
    expect(s.tracking.status()).toMatchObject({ enabled: true, paused: false, engine: 'sim:geometry' });
    expect(s.frames.some((f) => f.type === 'tracking' && f.detected === true)).toBe(true);
    expect(s.robot.services.get('tracking')?.state).toBe('running');
  });

  it('a hold pauses tracking (weight 0) and its expiry resumes it', async () => {
    const s = await begin();
    const hold = await s.tracking.hold('look', true, 1);
    expect(hold).toEqual({ name: 'look', on: true, ttl: 1, active: true });
    expect((await s.simStatus()).tracking).toEqual({ enabled: true, weight: 0 });
    expect(s.tracking.status().paused).toBe(true);
    await waitFor('the weight back at 1', async () => (await s.simStatus()).tracking.weight === 1, 3000);
    expect(s.tracking.status()).toMatchObject({ paused: false, holds: [] });
  });

  it('a daemon restart switches tracking back on', async () => {
    const s = await begin();
    await s.simPost('/sim/backend', { action: 'restart' });
    // A fresh backend comes back with its tracker off and says nothing about it.
    await waitFor('the restarted backend', async () => {
      const st = await s.simStatus();
      return st.backend.ready && !st.tracking.enabled;
    });
    await waitFor(
      'tracking re-enabled on the restarted daemon',
      async () => {
        const st = await s.simStatus();
        return st.backend.ready && st.tracking.enabled && st.tracking.weight === 1;
      },
      8000,
    );
    expect(s.tracking.status().reenabled).toBeGreaterThanOrEqual(1);
  });
});

describe('turn toward the speaker on the simulator', () => {
  it('turns the head toward a voice when no face is seen', async () => {
    const s = await begin();
    await s.simPost('/sim/speaker', { bearing: 30, speaking: true });
    await waitFor('a turn', () => s.doa.status().turns >= 1);
    await waitFor('the head toward the voice (30°)', () => near(s.state().head.yaw, 30, 8));
    await waitFor('facing the voice', () => /already facing/.test(s.doa.status().why ?? ''));
    expect(s.doa.status().turns).toBe(1);
    expect(s.frames.some((f) => f.type === 'doa' && f.turns === 1)).toBe(true);
  });

  it('does not turn while tracking has a face', async () => {
    const s = await begin();
    await s.simPost('/sim/face', { yaw: -20, pitch: 0 });
    await waitFor('a detected face', () => s.tracking.status().detected);
    await s.simPost('/sim/speaker', { bearing: 40, speaking: true });
    await waitFor('the reason', () => s.doa.status().why === 'face tracker has a lock');
    // The barrier: the feed hands every state sample to the turner before this later listener,
    // so 20 more samples (over a second of readings at the feed's rate) have all been judged.
    let samples = 0;
    const off = s.robot.feed.onSample(() => void (samples += 1));
    await waitFor('20 more state samples judged by the turner', () => samples >= 20);
    off();
    expect(s.doa.status().why).toBe('face tracker has a lock');
    expect(s.doa.status().turns).toBe(0);
    expect(near(s.state().head.yaw, -20, 3)).toBe(true);
  });
});
