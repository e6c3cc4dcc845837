/** Words and input handling of the sign-in card. */
import type { ApiFailure } from '../../lib/api/api-result.ts';
import type { SignInReason } from '../../lib/state/session.svelte.ts';

/** Why the card shows; `passkeys` false where this page cannot use them (the notice says why). */
export function signInPrompt(reason: SignInReason, passkeys = true): string {
  switch (reason) {
    case 'refused':
      return 'The cockpit no longer accepts the saved token. Enter the owner token to continue.';
    case 'expired':
      return 'Your passkey session has ended. Sign in again to continue.';
    case 'signed-out':
      return 'You signed out. Sign in again to open the dashboard.';
    case 'missing':
      return passkeys
        ? 'Sign in with a passkey, or with the owner token the cockpit prints at start (with a link that signs in directly).'
        : 'Enter the owner token to open the dashboard. The cockpit prints it at start, with a link that signs in directly.';
  }
}

/** Tokens are pasted more often than typed: forgive surrounding spaces, a `Bearer ` prefix, a whole link. */
export function normalizeToken(input: string): string | null {
  let text = input.trim();
  const fromLink = /[?#&]token=([^&#\s]+)/.exec(text);
  if (fromLink?.[1]) text = safeDecode(fromLink[1]);
  text = text.replace(/^bearer\s+/i, '').trim();
  return text === '' || /\s/.test(text) ? null : text;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export type EnrolMode = 'first-use' | 'pairing' | 'token';

/** Why an enrolment failed, said for the way it was attempted. */
export function enrolProblem(mode: EnrolMode, failure: Pick<ApiFailure, 'code' | 'message'>): string {
  if (failure.code !== 'AUTH_FORBIDDEN') return failure.message;
  switch (mode) {
    case 'pairing':
      return 'This pairing link has expired or was already used. Make a new one on the dashboard that showed it.';
    case 'token':
      return 'The cockpit refused this enrolment token. Check it and try again.';
    case 'first-use':
      return 'A passkey was enrolled meanwhile, so first-use enrolment is closed. Sign in, or ask the owner for a pairing link.';
  }
}
