/**
 * Which ways in the sign-in page offers, from what the cockpit says (GET /api/auth/status) and
 * what the browser allows. Passkeys need a secure context and a host name: browsers refuse them
 * over plain http (except on localhost) and on raw IP addresses, so those pages say why and keep
 * the owner token.
 */
import type { AuthStatus } from '../../../../server/contract/index.ts';

/** Why passkeys cannot be used on this page; null when they can. */
export type PasskeyBlock = 'ip-host' | 'insecure' | 'unsupported' | null;

export interface SignInPlan {
  block: PasskeyBlock;
  /** The enrolment offered up front: a pairing link's, or the first passkey of the robot. */
  enrol: 'pairing' | 'first-use' | null;
  /** The "Sign in with a passkey" button. */
  signIn: boolean;
  /** The enrolment-token form (ROBOT_REG_TOKEN) for another passkey. */
  enrolWithToken: boolean;
}

export interface PlanInput {
  /** Null when the cockpit did not answer. */
  status: AuthStatus | null;
  hostname: string;
  secureContext: boolean;
  /** The browser has the WebAuthn API at all. */
  webAuthn: boolean;
  pairCode: string | null;
}

/** IPv4 or a bracketed / bare IPv6 address, as the browser shows it in location.hostname. */
export function isIpHostname(hostname: string): boolean {
  const name = hostname.replace(/^\[(.*)\]$/, '$1');
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(':');
}

export function passkeyBlock(input: Omit<PlanInput, 'pairCode'>): PasskeyBlock {
  if (input.status?.ipHost ?? isIpHostname(input.hostname)) return 'ip-host';
  if (!input.secureContext) return 'insecure';
  if (!input.webAuthn) return 'unsupported';
  return null;
}

export function signInPlan(input: PlanInput): SignInPlan {
  const none: SignInPlan = { block: passkeyBlock(input), enrol: null, signIn: false, enrolWithToken: false };
  const status = input.status;
  if (none.block !== null || status === null) return none;
  if (input.pairCode !== null) return { ...none, enrol: 'pairing', signIn: status.hasCredentials };
  if (status.firstUseOpen) return { ...none, enrol: 'first-use' };
  return { ...none, signIn: status.hasCredentials, enrolWithToken: status.enrolTokenConfigured };
}
