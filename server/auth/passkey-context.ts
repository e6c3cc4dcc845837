/**
 * What the passkey ceremonies share. Built once by createPasskeyService.
 */
import type { Log } from '../log.ts';
import type { ChallengeStore } from './challenges.ts';
import type { Clock } from './clock.ts';
import type { CredentialStore } from './credential-store.ts';
import type { PairingCodes } from './pairing.ts';
import type { SessionStore } from './sessions.ts';

/** How a registration was allowed (first use, owner, enrolment token or pairing code). */
export type EnrolmentGrant = 'first-use' | 'owner' | 'token' | 'pairing';

export interface RegisterPayload {
  rpId: string;
  origin: string;
  grant: EnrolmentGrant;
  label: string | undefined;
}

export interface LoginPayload {
  rpId: string;
}

export interface PasskeyContext {
  rpName: string;
  regToken: string | undefined;
  sessionTtlSeconds: number;
  /** Whether an owner bearer token exists as a fallback; guards deleting the last passkey. */
  ownerTokenExists: boolean;
  clock: Clock;
  log: Log;
  credentials: CredentialStore;
  sessions: SessionStore;
  pairing: PairingCodes;
  challenges: ChallengeStore<{ register: RegisterPayload; login: LoginPayload }>;
}

/** A new session as the HTTP layer needs it: `id` is the cookie value. */
export interface NewSession {
  id: string;
  key: string;
  expiresAt: number;
}
