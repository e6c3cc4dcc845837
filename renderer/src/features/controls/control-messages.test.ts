import { describe, expect, it } from 'vitest';
import { refusalText } from './control-messages.ts';

describe('refusalText', () => {
  it('says what to do about a latched stop and a rate limit', () => {
    expect(refusalText({ code: 'STOP_LATCHED', message: 'stopped: resume from the dashboard first' })).toMatch(/Resume first/);
    expect(refusalText({ code: 'RATE_LIMITED', message: 'x' })).toMatch(/Wait a moment/);
  });

  it('names who holds the robot when a daemon app or remote session has it', () => {
    const message = 'the robot is in use by the app "hello_world" running on the robot; stop it first (STOP still works)';
    expect(refusalText({ code: 'ROBOT_APP_LOCKED', message })).toBe(`Refused: ${message}.`);
  });

  it('passes the cockpit message on, as a sentence', () => {
    expect(refusalText({ code: 'DAEMON_STOPPED', message: 'the daemon backend is not running' })).toBe(
      'The robot did not take it: the daemon backend is not running.',
    );
    expect(refusalText({ code: 'MOVE_UNKNOWN', message: 'no move named "x" in the library' })).toBe('no move named "x" in the library.');
    expect(refusalText({ code: 'NETWORK', message: 'The cockpit server cannot be reached.' })).toBe('The cockpit server cannot be reached.');
  });
});
