/** Words and input handling of the sign-in card. */
import type { SignInReason } from '../../lib/state/session.svelte.ts';

export function signInPrompt(reason: SignInReason): string {
  switch (reason) {
    case 'refused':
      return 'The cockpit no longer accepts the saved token. Enter the owner token to continue.';
    case 'signed-out':
      return 'You signed out. Enter the owner token to open the dashboard again.';
    case 'missing':
      return 'Enter the owner token to open the dashboard. The cockpit prints it at start, with a link that signs in directly.';
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
