import { describe, expect, it } from 'vitest';
import { clampJoystick, joystickToWire, parseJoystickFrame } from './joystick.ts';
import { describeLook, planLook } from './goto-controls.ts';
import { parseLook } from './control-input.ts';

const RAD = Math.PI / 180;

describe("look plan: the head's reach where the daemon takes the body", () => {
  it('takes a pose the daemon reaches once its IK has brought the body along its own way', () => {
    // Daemon 1.13.0's IK takes this head with the body asked for -18° (where a head-only look
    // sends the body from -102°) by turning the body to -14.8°: it measures the head's yaw from
    // its rotation, a few degrees off the pose's 47° once the head is pitched and rolled.
    const input = { x: 17, y: 20, z: 1, roll: 11, pitch: -21, yaw: 47 };
    const plan = planLook(input, undefined, -102);
    expect(plan.applied).toMatchObject({ ...input, body_yaw: -18 });
  });

  it('leaves a joystick target the daemon reaches as sent', () => {
    // Daemon 1.13.0's IK takes this head with the body at 104° by turning the body to 75.6°.
    const target = { yaw: 14, pitch: -10, roll: -18, z: 7 };
    expect(clampJoystick(target, 104)).toEqual({ target, clamped: {} });
  });
});

describe('look plan: clamping to the safe ranges', () => {
  it.each([
    ['yaw', 200, 60],
    ['yaw', -90, -60],
    ['pitch', 40, 25],
    ['pitch', -45, -30],
    ['roll', 30, 25],
    ['x', 50, 20],
    ['y', -50, -20],
    ['z', 40, 20],
    ['z', -80, -30],
    ['body_yaw', 170, 150],
  ] as const)('%s %d → %d, reported', (field, requested, applied) => {
    const plan = planLook(parseLook({ [field]: requested }));
    expect(plan.applied[field]).toBe(applied);
    expect(plan.clamped).toEqual({ [field]: { requested, applied } });
  });

  it('clamps antennas and duration too', () => {
    const plan = planLook({ antennas: [-200, 180], duration: 0.05 });
    expect(plan.applied).toEqual({ antennas: [-170, 170], duration: 0.2 });
    expect(Object.keys(plan.clamped)).toEqual(['duration', 'antenna_right', 'antenna_left']);
    expect(planLook({ yaw: 1, duration: 60 }).applied.duration).toBe(10);
  });

  it('sends an absolute head pose in radians and metres, defaults of 1 s', () => {
    const { goto, clamped } = planLook({ yaw: 30, z: -10 });
    expect(clamped).toEqual({});
    expect(goto.duration).toBe(1);
    expect(goto.head_pose?.yaw).toBeCloseTo(30 * RAD, 9);
    expect(goto.head_pose?.z).toBeCloseTo(-0.01, 9);
    expect(goto.head_pose).toMatchObject({ x: 0, y: 0, roll: 0, pitch: 0 });
    expect(goto.antennas).toBeUndefined();
    expect(goto.body_yaw).toBeUndefined();
  });

  it('keeps the body within 65° of the head named with it, as the daemon does, and says so', () => {
    // The daemon turned a body asked for -150° with the head at 60° to -5° (reachy-mini 1.13.0).
    const plan = planLook({ yaw: 60, body_yaw: -150 });
    expect(plan.applied.body_yaw).toBe(-5);
    expect(plan.goto.body_yaw).toBeCloseTo(-5 * RAD, 9);
    expect(plan.clamped).toEqual({ body_yaw: { requested: -150, applied: -5 } });
    expect(planLook({ yaw: 0, body_yaw: 170 }).clamped).toEqual({ body_yaw: { requested: 170, applied: 65 } });
    expect(planLook({ yaw: -60, body_yaw: -120 }).clamped).toEqual({});
  });

  it('leaves the head alone when only antennas or body are named', () => {
    const { goto } = planLook({ body_yaw: 45 });
    expect(goto.head_pose).toBeUndefined();
    expect(goto.body_yaw).toBeCloseTo(45 * RAD, 9);
  });

  it("keeps a body-only look within 65° of the head's yaw now, as the daemon does, and says so", () => {
    // The daemon turned a body asked for -60° alone, with the head at 40°, to -25° (reachy-mini 1.13.0).
    const plan = planLook({ body_yaw: -60 }, 40);
    expect(plan.goto.head_pose).toBeUndefined();
    expect(plan.applied.body_yaw).toBe(-25);
    expect(plan.goto.body_yaw).toBeCloseTo(-25 * RAD, 9);
    expect(plan.clamped).toEqual({ body_yaw: { requested: -60, applied: -25 } });
    expect(planLook({ body_yaw: 100 }, -40).clamped).toEqual({ body_yaw: { requested: 100, applied: 25 } });
    // The head's yaw not known: the safe range only.
    expect(planLook({ body_yaw: -60 }).clamped).toEqual({});
  });

  it("refuses a pose whose axes are each in range but together out of the head's reach", () => {
    // Sent anyway, daemon 1.13.0 stopped the head at z 7.8 mm, short of the 20 mm asked for, and
    // ended the move completed: the answer would have named a pose the head never took.
    expect(() => planLook({ pitch: 25, roll: 25, z: 20 })).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        message:
          'the head cannot reach pitch 25°, roll 25°, z 20 mm together (each is in range, the mix is not): ask for less of one of them',
      }),
    );
    expect(() => planLook({ z: 20, pitch: 25 })).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    expect(planLook({ pitch: 25, roll: 25, z: 8 }).clamped).toEqual({});
    // Clamped first: what is out of reach is what would have been sent.
    expect(() => planLook({ pitch: 40, roll: 40, z: 40 })).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });

  it('takes every end of every safe range on its own', () => {
    for (const [field, values] of Object.entries({
      x: [-20, 20],
      y: [-20, 20],
      z: [-30, 20],
      roll: [-25, 25],
      pitch: [-30, 25],
      yaw: [-60, 60],
    }))
      for (const value of values) expect(planLook({ [field]: value }).clamped).toEqual({});
  });

  it('says where a look naming the head only takes the body, when it takes it along', () => {
    // Daemon 1.13.0: a head sent to -60° alone with the body at 100° took the body to 5°.
    const plan = planLook({ yaw: -60 }, 40, 100);
    expect(plan.applied.body_yaw).toBe(5);
    expect(plan.goto.body_yaw).toBeCloseTo(5 * RAD, 9);
    expect(plan.clamped).toEqual({});
    expect(describeLook(plan.applied)).toBe('look yaw -60° body 5° in 1 s');
    // Within 65° already, or not known: the body stays, and the goto leaves it alone.
    expect(planLook({ yaw: -60 }, 40, -100).goto.body_yaw).toBeUndefined();
    expect(planLook({ yaw: -60 }, 40, -100).applied.body_yaw).toBeUndefined();
    expect(planLook({ yaw: -60 }).goto.body_yaw).toBeUndefined();
  });

  it('describes the move for the receipt', () => {
    expect(describeLook(planLook({ yaw: 20, pitch: -5 }).applied)).toBe('look yaw 20° pitch -5° in 1 s');
    expect(describeLook(planLook({ yaw: 0 }).applied)).toBe('look straight ahead in 1 s');
    expect(describeLook(planLook({ antennas: [-30, 30], body_yaw: 10, duration: 2 }).applied)).toBe(
      'look antennas -30° / 30° body 10° in 2 s',
    );
  });
});

describe('joystick frames', () => {
  it('parses absolute targets, missing fields neutral', () => {
    expect(parseJoystickFrame({ type: 'joystick', yaw: 12, z: -4 })).toEqual({
      ok: true,
      target: { yaw: 12, pitch: 0, roll: 0, z: -4 },
    });
  });

  it('names the mistyped field', () => {
    expect(parseJoystickFrame({ pitch: '3' })).toEqual({ ok: false, error: 'pitch must be a number (degrees)' });
    expect(parseJoystickFrame({ z: null })).toEqual({ ok: false, error: 'z must be a number (millimetres)' });
    expect(parseJoystickFrame('up')).toEqual({ ok: false, error: 'joystick frame must be an object' });
  });

  it('clamps like look and converts to a daemon target', () => {
    const { target, clamped } = clampJoystick({ yaw: -100, pitch: 10, roll: 0, z: -50 });
    expect(target).toEqual({ yaw: -60, pitch: 10, roll: 0, z: -30 });
    expect(Object.keys(clamped)).toEqual(['yaw', 'z']);
    const wire = joystickToWire(target);
    expect(wire.target_head_pose?.yaw).toBeCloseTo(-60 * RAD, 9);
    expect(wire.target_head_pose?.z).toBeCloseTo(-0.03, 9);
  });

  it("draws pitch, roll and z in together to the edge of the head's reach, and says so", () => {
    // Daemon 1.13.0's IK has no answer for yaw -60° pitch 10° z 20 mm, so it skips the target and
    // the head stays put; it has one for yaw -60° pitch 7.32° z 14.64 mm.
    const edge = clampJoystick({ yaw: -100, pitch: 10, roll: 0, z: 50 });
    expect(edge.target).toEqual({ yaw: -60, pitch: 7.32, roll: 0, z: 14.64 });
    expect(edge.clamped).toEqual({
      yaw: { requested: -100, applied: -60 },
      z: { requested: 50, applied: 14.64 },
      pitch: { requested: 10, applied: 7.32 },
    });
    // Pitch, roll and z of 25°, 25° and 20 mm: out of reach together (pitch 25° roll 25° reach z 8 mm).
    const corner = clampJoystick({ yaw: 0, pitch: 25, roll: 25, z: 20 });
    expect(corner.target).toEqual({ yaw: 0, pitch: 16.99, roll: 16.99, z: 13.59 });
    expect(Object.keys(corner.clamped)).toEqual(['pitch', 'roll', 'z']);
    // In reach: nothing is changed.
    expect(clampJoystick({ yaw: 0, pitch: 25, roll: 25, z: 8 })).toEqual({
      target: { yaw: 0, pitch: 25, roll: 25, z: 8 },
      clamped: {},
    });
  });
});
