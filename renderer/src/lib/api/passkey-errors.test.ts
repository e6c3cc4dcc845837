import { describe, expect, it } from 'vitest';
import { ceremonyFailure } from './passkey-errors.ts';

const domError = (name: string, message = '') => Object.assign(new Error(message), { name });

describe('ceremonyFailure', () => {
  it('reads a closed or timed-out prompt as cancelled, worded for the ceremony', () => {
    expect(ceremonyFailure(domError('NotAllowedError'), 'register')).toMatchObject({
      ok: false,
      code: 'PASSKEY_CANCELLED',
      message: expect.stringMatching(/No passkey was created/),
    });
    expect(ceremonyFailure(domError('NotAllowedError'), 'login').message).toMatch(/Not signed in/);
    expect(ceremonyFailure({ name: 'Error', code: 'ERROR_CEREMONY_ABORTED' }, 'login').code).toBe('PASSKEY_CANCELLED');
  });

  it('says when the device already holds a passkey for this robot', () => {
    expect(ceremonyFailure({ name: 'InvalidStateError', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' }, 'register').code).toBe(
      'PASSKEY_EXISTS',
    );
  });

  it('explains an address the browser will not use for passkeys', () => {
    expect(ceremonyFailure(domError('SecurityError'), 'register').code).toBe('PASSKEY_INSECURE');
    expect(ceremonyFailure({ name: 'Error', code: 'ERROR_INVALID_RP_ID' }, 'login').code).toBe('PASSKEY_INSECURE');
  });

  it('keeps the message of anything unexpected', () => {
    expect(ceremonyFailure(domError('UnknownError', 'authenticator fell over'), 'login')).toEqual({
      ok: false,
      status: 0,
      code: 'PASSKEY_FAILED',
      message: 'The passkey prompt failed (authenticator fell over).',
    });
    expect(ceremonyFailure('weird', 'login').code).toBe('PASSKEY_FAILED');
    expect(ceremonyFailure(domError('NotSupportedError'), 'register').code).toBe('PASSKEY_UNSUPPORTED');
  });
});
