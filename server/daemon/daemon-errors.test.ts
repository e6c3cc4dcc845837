import { describe, expect, it } from 'vitest';
import type { AppError } from '../errors.ts';
import { ok } from './daemon-reply.ts';

const fail = (status: number, body: unknown): AppError => {
  try {
    ok({ status, body }, 'status');
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a refusal');
};

describe("the daemon's refusals as app errors", () => {
  it('a stopped backend is DAEMON_STOPPED', () => {
    expect(fail(503, { detail: 'Backend not running' }).code).toBe('DAEMON_STOPPED');
  });

  it("the local-network guard's Host refusal says how to reach the daemon", () => {
    const err = fail(400, { detail: 'Untrusted Host header' });
    expect(err.code).toBe('DAEMON_ERROR');
    expect(err.message).toMatch(/IP address or its \.local name/);
  });

  it('other refusals carry the status and the detail (text, JSON or pydantic)', () => {
    expect(fail(500, 'Internal Server Error').message).toBe('daemon refused status (500): Internal Server Error');
    expect(fail(400, { detail: 'No app is currently running' }).message).toMatch(/\(400\): No app is currently running/);
    expect(fail(422, { detail: [{ loc: ['body', 'uuid'], msg: 'Input should be a valid UUID' }] }).message).toMatch(
      /body\.uuid: Input should be a valid UUID/,
    );
  });

  it('a malformed list of problems is still a DAEMON_ERROR, never a crash', () => {
    for (const detail of [[null], [{ loc: 'body' }], [7, { loc: [{}], msg: 3 }]]) {
      const err = fail(422, { detail });
      expect(err.code).toBe('DAEMON_ERROR');
      expect(err.message).toMatch(/^daemon refused status \(422\): /);
    }
  });
});
