import { describe, expect, it } from 'vitest';
import { JoystickDriver } from './joystick-driver.ts';
import { ZERO_RATES, type JoystickTarget } from './joystick-math.ts';

function harness(pose: JoystickTarget | null = { yaw: 10, pitch: 0, roll: 0, z: 0 }) {
  let now = 0;
  let timer: { run: () => void; ms: number } | null = null;
  const sent: JoystickTarget[] = [];
  const activity: boolean[] = [];
  let socketOpen = true;
  const driver = new JoystickDriver({
    send: (target) => {
      if (socketOpen) sent.push(target);
      return socketOpen;
    },
    pose: () => pose,
    onActive: (active) => activity.push(active),
    hz: 25,
    now: () => now,
    setInterval: (run, ms) => (timer = { run, ms }),
    clearInterval: () => (timer = null),
  });
  const advance = (ms: number) => {
    for (let t = 0; t < ms; t += 40) {
      now += 40;
      timer?.run();
    }
  };
  return {
    driver,
    sent,
    activity,
    advance,
    timer: () => timer,
    wait: (ms: number) => (now += ms),
    closeSocket: () => (socketOpen = false),
  };
}

const left = { ...ZERO_RATES, yaw: 1 };

describe('JoystickDriver', () => {
  it('sends at once when a hold starts, from the current pose, then at its rate', () => {
    const h = harness();
    h.driver.set('keys', left);
    expect(h.timer()?.ms).toBe(40);
    expect(h.sent).toEqual([{ yaw: 11.8, pitch: 0, roll: 0, z: 0 }]);
    h.advance(400);
    expect(h.sent).toHaveLength(11);
    expect(h.sent.at(-1)!.yaw).toBeCloseTo(29.8, 5);
    expect(h.activity).toEqual([true]);
  });

  it('sends nothing once every input lets go', () => {
    const h = harness();
    h.driver.set('keys', left);
    h.driver.set('pad', { ...ZERO_RATES, pitch: 0.5 });
    h.driver.set('keys', ZERO_RATES);
    expect(h.driver.active).toBe(true);
    h.driver.set('pad', ZERO_RATES);
    expect(h.driver.active).toBe(false);
    const count = h.sent.length;
    h.advance(400);
    expect(h.sent).toHaveLength(count);
    expect(h.activity).toEqual([true, false]);
  });

  it('continues from its own target right after a release, from the pose after the stream has ended', () => {
    const h = harness({ yaw: 0, pitch: 0, roll: 0, z: 0 });
    h.driver.set('keys', left);
    h.advance(200);
    const reached = h.sent.at(-1)!.yaw;
    h.driver.releaseAll();
    h.wait(100);
    h.driver.set('keys', left);
    expect(h.sent.at(-1)!.yaw).toBeGreaterThan(reached);
    h.driver.releaseAll();
    h.wait(1000);
    h.driver.set('keys', left);
    expect(h.sent.at(-1)!.yaw).toBeCloseTo(1.8, 5);
  });

  it('holds still while disabled and resumes when enabled with the input still held', () => {
    const h = harness();
    h.driver.setEnabled(false);
    h.driver.set('keys', left);
    expect(h.sent).toEqual([]);
    expect(h.driver.active).toBe(false);
    h.driver.setEnabled(true);
    expect(h.driver.active).toBe(true);
  });

  it('starts from neutral without a pose and counts only frames that went out', () => {
    const h = harness(null);
    h.closeSocket();
    h.driver.set('gamepad', left);
    expect(h.sent).toEqual([]);
    expect(h.driver.target.yaw).toBeCloseTo(1.8, 5);
    h.driver.dispose();
    expect(h.driver.active).toBe(false);
  });
});
