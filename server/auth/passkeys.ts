/**
 * The passkey service behind the /api/auth/* routes (cockpit-api.md "auth handshake", issue 3).
 * Plain async functions over injected stores; the HTTP layer resolves the relying party
 * (relying-party.ts), decides who the caller is, and sets or clears the session cookie.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { AppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { createChallengeStore } from './challenges.ts';
import type { Clock } from './clock.ts';
import { createCredentialStore, toPublicCredential } from './credential-store.ts';
import type { PublicCredential } from './credential-store.ts';
import type { LoginPayload, NewSession, PasskeyContext, RegisterPayload } from './passkey-context.ts';
import { loginBegin, loginComplete } from './passkey-login.ts';
import type { LoginCompleteInput } from './passkey-login.ts';
import { cleanLabel, registerBegin, registerComplete } from './passkey-register.ts';
import type { RegisterBeginInput, RegisterCompleteInput } from './passkey-register.ts';
import type { PairingCodes } from './pairing.ts';
import type { SessionStore } from './sessions.ts';

export type { NewSession } from './passkey-context.ts';
export type { PublicCredential } from './credential-store.ts';
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

/** What GET /api/auth/status reports about passkeys. */
export interface PasskeyStatus {
  /** The caller is the owner (bearer or passkey session), as decided by the gate. */
  owner: boolean;
  passkeys: number;
  hasCredentials: boolean;
  /** No passkey exists yet: the next enrolment is trust-on-first-use. */
  firstUseOpen: boolean;
  /** This caller may start an enrolment without a token or pairing code. */
  registrationOpen: boolean;
  enrolTokenConfigured: boolean;
}

export interface PasskeyService {
  status(caller: { owner: boolean }): PasskeyStatus;
  registerBegin(
    input: RegisterBeginInput,
  ): Promise<{ challengeId: string; expiresAt: number; options: PublicKeyCredentialCreationOptionsJSON }>;
  registerComplete(input: RegisterCompleteInput): Promise<{ credential: PublicCredential; session: NewSession }>;
  loginBegin(input: {
    rpId: string;
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
  const { clock, log, sessions } = options;
  const credentials = await createCredentialStore({ dataDir: options.dataDir, clock, log });
  const ctx: PasskeyContext = {
    rpName: options.rpName ?? 'Robot Cockpit',
    regToken: options.regToken,
    sessionTtlSeconds: options.sessionTtlSeconds,
    clock,
    log,
    credentials,
    sessions,
    pairing: options.pairing,
    challenges: createChallengeStore<{ register: RegisterPayload; login: LoginPayload }>({ clock }),
  };
  const ownerTokenExists = options.ownerTokenExists ?? true;

  function status(caller: { owner: boolean }): PasskeyStatus {
    const passkeys = credentials.count();
    return {
      owner: caller.owner,
      passkeys,
      hasCredentials: passkeys > 0,
      firstUseOpen: passkeys === 0,
      registrationOpen: passkeys === 0 || caller.owner,
      enrolTokenConfigured: options.regToken !== undefined,
    };
  }

  async function renameCredential(id: string, label: string): Promise<PublicCredential> {
    const clean = cleanLabel(label);
    if (clean === undefined) throw new AppError('BAD_REQUEST', 'label is required');
    await credentials.rename(id, clean);
    const renamed = credentials.find(id);
    if (!renamed) throw new AppError('NOT_FOUND', 'no such passkey');
    return toPublicCredential(renamed);
  }

  async function deleteCredential(id: string): Promise<void> {
    if (!credentials.find(id)) throw new AppError('NOT_FOUND', 'no such passkey');
    if (credentials.count() === 1 && !ownerTokenExists) {
      throw new AppError('CONFLICT', 'the last passkey cannot be deleted while no owner token exists');
    }
    if (!(await credentials.remove(id))) throw new AppError('NOT_FOUND', 'no such passkey');
    await sessions.destroyByCredential(id);
    log.info('passkey deleted');
  }

  return {
    status,
    registerBegin: (input) => registerBegin(ctx, input),
    registerComplete: (input) => registerComplete(ctx, input),
    loginBegin: (input) => loginBegin(ctx, input),
    loginComplete: (input) => loginComplete(ctx, input),
    logout: (sessionId) => sessions.destroy(sessionId),
    listCredentials: () => credentials.all().map(toPublicCredential),
    renameCredential,
    deleteCredential,
  };
}
