/**
 * Passkey sign-in (docs/contract.md, "Passkey flow"). Errors: unknown, used,
 * expired or wrong-kind challenge → BAD_REQUEST; malformed response → BAD_REQUEST; unknown
 * credential, bad signature or a counter that went backwards → AUTH_REQUIRED. Only a verified
 * sign-in writes (the new counter and last-use time).
 */
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { AppError, badRequest, messageOf } from '../errors.ts';
import { CHALLENGE_TTL_MS } from './challenges.ts';
import type { NewSession, PasskeyContext } from './passkey-context.ts';
import { parseAuthenticationResponse } from './passkey-response.ts';

export interface LoginCompleteInput {
  challengeId: string;
  response: unknown;
  rpId: string;
  origin: string;
}

export async function loginBegin(
  ctx: PasskeyContext,
  input: { rpId: string; client?: string | undefined },
): Promise<{ challengeId: string; expiresAt: number; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({
    rpID: input.rpId,
    // Listing the ids lets security keys without resident credentials sign in; with one owner
    // there is nobody to hide them from.
    allowCredentials: ctx.credentials.all().map((c) => ({ id: c.id, transports: [...c.transports] })),
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  const { challengeId, expiresAt } = ctx.challenges.put('login', options.challenge, { rpId: input.rpId }, input.client);
  return { challengeId, expiresAt, options };
}

export async function loginComplete(
  ctx: PasskeyContext,
  input: LoginCompleteInput,
): Promise<{ session: NewSession; credentialId: string }> {
  const record = ctx.challenges.take(input.challengeId, 'login');
  if (!record) throw badRequest('unknown, used or expired sign-in challenge; start again');
  if (record.payload.rpId !== input.rpId) throw badRequest('the sign-in was started for another relying party');
  const response = parseAuthenticationResponse(input.response);
  const stored = ctx.credentials.find(response.id);
  if (!stored) throw new AppError('AUTH_REQUIRED', 'unknown passkey');
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: record.challenge,
      expectedOrigin: input.origin,
      expectedRPID: input.rpId,
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: [...stored.transports],
      },
      requireUserVerification: false,
    });
  } catch (error) {
    ctx.log.info('passkey sign-in refused', { reason: messageOf(error) });
    throw new AppError('AUTH_REQUIRED', `passkey sign-in failed: ${messageOf(error)}`);
  }
  if (!verification.verified) throw new AppError('AUTH_REQUIRED', 'passkey sign-in failed: bad signature');
  const counter = verification.authenticationInfo.newCounter;
  // Deleted between lookup and now: the passkey no longer grants anything.
  if (!(await ctx.credentials.recordUse(stored.id, counter))) throw new AppError('AUTH_REQUIRED', 'unknown passkey');
  const session = await ctx.sessions.create({ credentialId: stored.id, ttlSeconds: ctx.sessionTtlSeconds });
  return { session, credentialId: stored.id };
}
