import { describe, expect, it } from 'vitest';
import { parsePort } from './cli-args.ts';
import { uuidProblem } from './fields.ts';
import { parseBool, readFlags } from './flags.ts';
import { parseFullBodyTarget, parseGoto } from './models.ts';
import { xyzrpyFromPose } from './pose.ts';
import { ValidationError, validationText } from './pydantic.ts';

function errorsOf(fn: () => unknown): unknown[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('flag parsing (FastAPI booleans)', () => {
  it('accepts true/false/1/0/yes/no/on/off in any case', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'on', 'Y', 't']) expect(parseBool(t)).toBe(true);
    for (const f of ['false', '0', 'no', 'Off', 'n', 'f']) expect(parseBool(f)).toBe(false);
  });

  it('refuses anything else', () => {
    for (const bad of ['maybe', '', '2', 'enable', 'truee']) expect(parseBool(bad)).toBeUndefined();
  });

  it('applies defaults, reports bad values and missing required flags', () => {
    const q = new URLSearchParams('with_doa=on&use_pose_matrix=perhaps');
    const r = readFlags(q, { with_doa: false, with_head_pose: true, use_pose_matrix: false, goto_sleep: undefined });
    expect(r.values.with_doa).toBe(true);
    expect(r.values.with_head_pose).toBe(true);
    expect(r.errors).toEqual([
      {
        type: 'bool_parsing',
        loc: ['query', 'use_pose_matrix'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'perhaps',
      },
      { type: 'missing', loc: ['query', 'goto_sleep'], msg: 'Field required', input: null },
    ]);
  });
});

describe('request models', () => {
  it('uses the uuid crate wording of docs/daemon.md, "Differential test and recorded fixtures"', () => {
    expect(uuidProblem('not-a-uuid')).toBe('invalid character: found `n` at 0');
    expect(uuidProblem('{nope}')).toBe('invalid character: found `n` at 1');
    expect(uuidProblem('urn:uuid:nope')).toBe('invalid character: found `n` at 9');
    expect(uuidProblem('aaaa-zzzz')).toBe('invalid character: found `z` at 5');
    expect(uuidProblem('1234')).toBe('invalid length: found 4');
    expect(uuidProblem('712e91ea-4283-4d4a-858c-c976fa6bb3dd')).toBeNull();
    expect(uuidProblem('712e91ea42834d4a858cc976fa6bb3dd')).toBeNull();
    expect(uuidProblem('1234')).toContain('invalid length');
  });

  it('parses goto bodies with defaults and pydantic errors', () => {
    const g = parseGoto({ head_pose: { yaw: 0.5 }, duration: '1.5' });
    expect(g.duration).toBe(1.5);
    expect(g.interpolation).toBe('minjerk');
    expect(xyzrpyFromPose(g.head ?? { t: [9, 9, 9], q: [1, 0, 0, 0] }).yaw).toBeCloseTo(0.5, 12);
    expect(errorsOf(() => parseGoto({ duration: 1, antennas: [1, 2, 3] }))).toMatchObject([
      { type: 'too_long', loc: ['body', 'antennas'] },
    ]);
    expect(errorsOf(() => parseGoto({ duration: 'soon' }))).toMatchObject([
      { type: 'float_parsing', loc: ['body', 'duration'] },
    ]);
    expect(errorsOf(() => parseGoto(undefined))).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
  });

  it('treats AnyPose as a smart union: {} and a bad m are the identity, a good m is a matrix', () => {
    expect(parseFullBodyTarget({ target_head_pose: {} }).head?.q).toEqual([1, 0, 0, 0]);
    expect(parseFullBodyTarget({ target_head_pose: { m: 'x' } }).head?.t).toEqual([0, 0, 0]);
    const m = [1, 0, 0, 0.01, 0, 1, 0, 0.02, 0, 0, 1, 0.03, 0, 0, 0, 1];
    expect(parseFullBodyTarget({ target_head_pose: { m } }).head?.t).toEqual([0.01, 0.02, 0.03]);
    expect(errorsOf(() => parseFullBodyTarget({ target_head_pose: 5 }))).toHaveLength(2);
  });

  it("renders the WebSocket error text the way pydantic's str() does", () => {
    const errors = errorsOf(() => parseFullBodyTarget({ target_antennas: [1, 2, 3] })) as ValidationError['errors'];
    const text = validationText('FullBodyTarget', errors);
    expect(text.split('\n')[0]).toBe('1 validation error for FullBodyTarget');
    expect(text).toContain(
      'target_antennas\n  Tuple should have at most 2 items after validation, not 3 [type=too_long',
    );
  });
});

describe('cli arguments', () => {
  it('defaults to port 8000 and reads --port N or --port=N', () => {
    expect(parsePort([])).toBe(8000);
    expect(parsePort(['--port', '9001'])).toBe(9001);
    expect(parsePort(['--port=0'])).toBe(0);
    expect(() => parsePort(['--port', 'x'])).toThrow(/--port/);
    expect(() => parsePort(['--port'])).toThrow(/--port/);
  });
});
