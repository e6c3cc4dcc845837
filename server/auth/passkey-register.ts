/**
 * Passkey registration (docs/contract.md, "Passkey flow", "Who may register").
 * Errors: unknown, used, expired or wrong-kind challenge → BAD_REQUEST; malformed or unverifiable
 * response → BAD_REQUEST; enrolment not allowed → AUTH_FORBIDDEN. No failure touches the stored
 * credentials: the only write is the final add, after every check has passed.
 */
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError, badRequest, messageOf } from '../errors.ts';
import { CHALLENGE_TTL_MS } from './challenges.ts';
import { toPublicCredential } from './credential-store.ts';
import type { PublicCredential } from '../contract/auth.ts';
import type { StoredCredential } from './credentials-file.ts';
import { tokensEqual } from '../http/secret-compare.ts';
import type { EnrolmentGrant, NewSession, PasskeyContext } from './passkey-context.ts';
import { parseRegistrationResponse } from './passkey-response.ts';

export interface RegisterBeginInput {
  rpId: string;
  origin: string;
  caller: { owner: boolean };
  enrolToken?: string | undefined;
  pairingCode?: string | undefined;
  label?: string | undefined;
  /** The caller's address: whose share of the outstanding ceremonies this one counts against. */
  client?: string | undefined;
}

export interface RegisterCompleteInput {
  challengeId: string;
  response: unknown;
  rpId: string;
  origin: string;
}

const MAX_LABEL = 64;

/** Trims a label and checks it is printable and short; undefined when none was given. */
export function cleanLabel(label: unknown): string | undefined {
  if (label === undefined || label === null) return undefined;
  if (typeof label !== 'string') throw badRequest('label must be a string');
  const trimmed = label.trim();
  // eslint-disable-next-line no-control-regex
  if (trimmed.length === 0 || trimmed.length > MAX_LABEL || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw badRequest(`label must be 1-${MAX_LABEL} printable characters`);
  }
  return trimmed;
}

/**
 * Who may register: a signed-in owner; anyone while no passkey exists (trust on first use);
 * else a valid one-time pairing code or the enrolment token (compared in constant time).
 */
function authorise(ctx: PasskeyContext, input: RegisterBeginInput): EnrolmentGrant {
  if (input.caller.owner) return 'owner';
  if (ctx.credentials.firstUseOpen()) return 'first-use';
  if (input.pairingCode !== undefined) {
    if (ctx.pairing.redeem(input.pairingCode)) return 'pairing';
    throw new AppError('AUTH_FORBIDDEN', 'invalid or expired pairing code');
  }
  if (input.enrolToken !== undefined) {
    const ok = ctx.regToken !== undefined && tokensEqual(input.enrolToken, ctx.regToken);
    if (ok) return 'token';
    throw new AppError('AUTH_FORBIDDEN', 'invalid enrolment token');
  }
  throw new AppError(
    'AUTH_FORBIDDEN',
    'enrolment closed: a passkey is already enrolled; sign in, or use the enrolment token or a pairing link',
  );
}

export async function registerBegin(
  ctx: PasskeyContext,
  input: RegisterBeginInput,
): Promise<{ challengeId: string; expiresAt: number; options: PublicKeyCredentialCreationOptionsJSON }> {
  const label = cleanLabel(input.label);
  const grant = authorise(ctx, input);
  const options = await generateRegistrationOptions({
    rpName: ctx.rpName,
    rpID: input.rpId,
    userName: 'owner',
    userDisplayName: 'Robot owner',
    userID: new Uint8Array(Buffer.from(ctx.credentials.userId(), 'base64url')),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    // An authenticator that already holds one of ours refuses, instead of making a duplicate.
    excludeCredentials: ctx.credentials.all().map((c) => ({ id: c.id, transports: [...c.transports] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  const payload = { rpId: input.rpId, origin: input.origin, grant, label };
  const { challengeId, expiresAt } = ctx.challenges.put('register', options.challenge, payload, input.client);
  return { challengeId, expiresAt, options };
}

/** Verifies the attestation against the stored challenge; every failure is BAD_REQUEST. */
async function verify(response: RegistrationResponseJSON, challenge: string, rpId: string, origin: string) {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: false,
    });
  } catch (error) {
    throw badRequest(`passkey registration rejected: ${messageOf(error)}`);
  }
  if (!verification.verified) throw badRequest('passkey registration could not be verified');
  // The library reads the id from authenticator data; the envelope must name the same one.
  if (verification.registrationInfo.credential.id !== response.id) {
    throw badRequest('passkey registration rejected: credential id mismatch');
  }
  return verification.registrationInfo;
}

export async function registerComplete(
  ctx: PasskeyContext,
  input: RegisterCompleteInput,
): Promise<{ credential: PublicCredential; session: NewSession }> {
  const record = ctx.challenges.take(input.challengeId, 'register');
  if (!record) throw badRequest('unknown, used or expired registration challenge; start again');
  const { rpId, origin, grant, label } = record.payload;
  if (rpId !== input.rpId || origin !== input.origin)
    throw badRequest('the registration was started on another origin');
  const response = parseRegistrationResponse(input.response);
  const info = await verify(response, record.challenge, rpId, origin);
  const stored: StoredCredential = {
    id: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: response.response.transports ?? [],
    label: label ?? `Passkey ${ctx.credentials.count() + 1}`,
    createdAt: new Date(ctx.clock.now()).toISOString(),
    lastUsedAt: null,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  };
  // The trust-on-first-use check is repeated inside the synchronous commit: of two concurrent
  // first enrolments, the second to arrive here finds a credential and is refused.
  await ctx.credentials.add(stored, { onlyIfEmpty: grant === 'first-use' });
  const session = await ctx.sessions.create({ credentialId: stored.id, ttlSeconds: ctx.sessionTtlSeconds });
  ctx.log.info('passkey enrolled', { label: stored.label, grant });
  return { credential: toPublicCredential(stored), session };
}
