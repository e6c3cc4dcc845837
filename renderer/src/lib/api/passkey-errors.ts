/** What the browser's WebAuthn refusals mean for the person in front of it. */
import type { ApiFailure, DashboardFailureCode } from './api-result.ts';

export type Ceremony = 'register' | 'login';

/** The browser's WebAuthn refusals, said plainly. Errors carry a DOMException name (the spec's). */
export function ceremonyFailure(error: unknown, ceremony: Ceremony): ApiFailure {
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name) : '';
  const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code) : '';
  const fail = (failCode: DashboardFailureCode, message: string): ApiFailure => ({
    ok: false,
    status: 0,
    code: failCode,
    message,
  });
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return fail('PASSKEY_EXISTS', 'This device already holds a passkey for this robot. Sign in with it instead.');
  }
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return fail(
      'PASSKEY_CANCELLED',
      ceremony === 'register'
        ? 'No passkey was created: the prompt was closed or timed out.'
        : 'Not signed in: the prompt was closed, timed out, or this device has no passkey for this robot.',
    );
  }
  if (name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return fail('PASSKEY_INSECURE', 'The browser refused passkeys on this address. Open the robot by its name over HTTPS.');
  }
  if (name === 'NotSupportedError') {
    return fail('PASSKEY_UNSUPPORTED', 'This browser or device cannot make a passkey the robot accepts.');
  }
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return fail('PASSKEY_FAILED', `The passkey prompt failed${detail}.`);
}
