import { describe, expect, it } from 'vitest';
import { resolveRelyingParty } from './relying-party.ts';

describe('resolveRelyingParty', () => {
  it('uses the request host and scheme when nothing is configured', () => {
    expect(resolveRelyingParty({ rpId: undefined, origin: undefined, host: 'Robot.local:8098', secure: true })).toEqual(
      {
        rpId: 'robot.local',
        origin: 'https://robot.local:8098',
      },
    );
    expect(resolveRelyingParty({ rpId: undefined, origin: undefined, host: 'localhost:8097', secure: false })).toEqual({
      rpId: 'localhost',
      origin: 'http://localhost:8097',
    });
    expect(resolveRelyingParty({ rpId: undefined, origin: undefined, host: '[::1]:8097', secure: false }).rpId).toBe(
      '::1',
    );
  });

  it('prefers ROBOT_RP_ID and ROBOT_ORIGIN', () => {
    expect(
      resolveRelyingParty({
        rpId: 'example.com',
        origin: 'https://robot.example.com',
        host: '10.0.0.2:8098',
        secure: true,
      }),
    ).toEqual({ rpId: 'example.com', origin: 'https://robot.example.com' });
    expect(
      resolveRelyingParty({ rpId: undefined, origin: 'https://robot.example.com', host: undefined, secure: true }).rpId,
    ).toBe('robot.example.com');
  });

  it('refuses a missing or malformed Host when nothing is configured', () => {
    for (const host of [undefined, '', 'a b', 'evil@robot.local', 'x/y']) {
      expect(() => resolveRelyingParty({ rpId: undefined, origin: undefined, host, secure: true })).toThrow(
        expect.objectContaining({ code: 'BAD_REQUEST' }),
      );
    }
  });
});
