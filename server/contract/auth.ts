/**
 * The desktop server's passkey routes (server/auth/auth-routes.ts, docs/contract.md
 * "Authentication"): who the caller is, an enrolled passkey as the owner sees it, what a ceremony
 * asks and answers, and a pairing link. Declared once for the cockpit and the dashboard.
 */

import type { CredentialKind } from './ws.ts';

/** GET /api/auth/status. */
export interface AuthStatus {
  /** How the cockpit knows this caller; `loopback` may read but not drive. */
  who: Exclude<CredentialKind, 'system'> | 'anonymous';
  owner: boolean;
  passkeys: number;
  hasCredentials: boolean;
  /** No passkey exists yet: the next enrolment is trust-on-first-use. */
  firstUseOpen: boolean;
  registrationOpen: boolean;
  enrolTokenConfigured: boolean;
  /** Epoch ms when the caller's passkey session ends, null without one. */
  sessionExpiresAt: number | null;
  secure: boolean;
  /** The page was opened by a raw IP address, which cannot hold a passkey. */
  ipHost: boolean;
}

/** What the API may show about a passkey: never its public key or counter. */
export interface PublicCredential {
  id: string;
  label: string;
  /** ISO times. */
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api/console/auth/pairing: a one-time link a phone opens to enrol its own passkey. */
export interface Pairing {
  code: string;
  /** Epoch ms. */
  expiresAt: number;
  url: string;
}

/** Body of POST /api/auth/register/begin: how this enrolment is allowed, and the passkey's label. */
export interface PasskeyEnrolBody {
  label?: string;
  /** ROBOT_REG_TOKEN, for a passkey after the first without a signed-in owner. */
  enrolToken?: string;
  /** The one-time code of a pairing link. */
  pairingCode?: string;
}

/** What POST /api/auth/login/complete answers; the session itself is an HttpOnly cookie. */
export interface PasskeySignedIn {
  ok: true;
  /** Epoch ms when the session ends. */
  sessionExpiresAt: number;
}

/** What POST /api/auth/register/complete answers: the new passkey, and the session it started. */
export interface PasskeyEnrolled extends PasskeySignedIn {
  credential: PublicCredential;
}
