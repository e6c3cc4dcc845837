/**
 * The passkey service behind the /api/auth/* routes (docs/contract.md, "Routes").
 * Plain async functions over injected stores; the HTTP layer resolves the relying party
 * (relying-party.ts), decides who the caller is, and sets or clears the session cookie.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { Log } from '../log.ts';
import { createChallengeStore } from './challenges.ts';
import type { Clock } from './clock.ts';
import { createCredentialStore, toPublicCredential } from './credential-store.ts';
import type { PublicCredential } from '../contract/auth.ts';
import { deleteCredential, passkeyStatus, renameCredential } from './passkey-admin.ts';
import type { PasskeyStatus } from './passkey-admin.ts';
import type { LoginPayload, NewSession, PasskeyContext, RegisterPayload } from './passkey-context.ts';
import { loginBegin, loginComplete } from './passkey-login.ts';
import type { LoginCompleteInput } from './passkey-login.ts';
import { registerBegin, registerComplete } from './passkey-register.ts';
import type { RegisterBeginInput, RegisterCompleteInput } from './passkey-register.ts';
import type { PairingCodes } from './pairing.ts';
import type { SessionStore } from './sessions.ts';

export type { NewSession } from './passkey-context.ts';
export type { PasskeyStatus } from './passkey-admin.ts';
export type { PublicCredential } from '../contract/auth.ts';
export type { RegisterBeginInput, RegisterCompleteInput } from './passkey-register.ts';
export type { LoginCompleteInput } from './passkey-login.ts';

export interface PasskeyServiceOptions {
  dataDir: string;
  clock: Clock;
  log: Log;
  /** ROBOT_REG_TOKEN; undefined means later enrolments need an owner or a pairing code. */
  regToken: string | undefined;
  /** Shown by the authenticator; 'Robot Cockpit'. */
  rpName?: string;
  sessions: SessionStore;
  /** ROBOT_SESSION_TTL. */
  sessionTtlSeconds: number;
  pairing: PairingCodes;
  /** Whether an owner bearer token exists as a fallback; guards deleting the last passkey. */
  ownerTokenExists?: boolean;
}

export interface PasskeyService {
  status(caller: { owner: boolean }): PasskeyStatus;
  registerBegin(
    input: RegisterBeginInput,
  ): Promise<{ challengeId: string; expiresAt: number; options: PublicKeyCredentialCreationOptionsJSON }>;
  registerComplete(input: RegisterCompleteInput): Promise<{ credential: PublicCredential; session: NewSession }>;
  loginBegin(input: {
    rpId: string;
    client?: string | undefined;
  }): Promise<{ challengeId: string; expiresAt: number; options: PublicKeyCredentialRequestOptionsJSON }>;
  loginComplete(input: LoginCompleteInput): Promise<{ session: NewSession; credentialId: string }>;
  /** Ends the session with this cookie value; false when there was none. */
  logout(sessionId: string): Promise<boolean>;
  /** Id, label and times only: never key material. */
  listCredentials(): PublicCredential[];
  /** NOT_FOUND when unknown; BAD_REQUEST for a bad label. */
  renameCredential(id: string, label: string): Promise<PublicCredential>;
  /** NOT_FOUND when unknown; CONFLICT for the last passkey when no owner token exists. */
  deleteCredential(id: string): Promise<void>;
}

/** Opens the credential store in `<dataDir>/credentials.json` and builds the service. */
export async function createPasskeyService(options: PasskeyServiceOptions): Promise<PasskeyService> {
  const { clock, log } = options;
  const credentials = await createCredentialStore({ dataDir: options.dataDir, clock, log });
  const ctx: PasskeyContext = {
    rpName: options.rpName ?? 'Robot Cockpit',
    regToken: options.regToken,
    sessionTtlSeconds: options.sessionTtlSeconds,
    ownerTokenExists: options.ownerTokenExists ?? true,
    clock,
    log,
    credentials,
    sessions: options.sessions,
    pairing: options.pairing,
    challenges: createChallengeStore<{ register: RegisterPayload; login: LoginPayload }>({ clock }),
  };
  return {
    status: (caller) => passkeyStatus(ctx, caller),
    registerBegin: (input) => registerBegin(ctx, input),
    registerComplete: (input) => registerComplete(ctx, input),
    loginBegin: (input) => loginBegin(ctx, input),
    loginComplete: (input) => loginComplete(ctx, input),
    logout: (sessionId) => ctx.sessions.destroy(sessionId),
    listCredentials: () => credentials.all().map(toPublicCredential),
    renameCredential: (id, label) => renameCredential(ctx, id, label),
    deleteCredential: (id) => deleteCredential(ctx, id),
  };
}
