/**
 * Owner-side passkey management behind GET/DELETE /api/auth/credentials (docs/contract.md,
 * "Routes") and the status route. The HTTP layer checks the caller is the owner first.
 */
import { AppError } from '../errors.ts';
import { toPublicCredential } from './credential-store.ts';
import type { PublicCredential } from '../contract/auth.ts';
import type { PasskeyContext } from './passkey-context.ts';
import { cleanLabel } from './passkey-register.ts';

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

export function passkeyStatus(ctx: PasskeyContext, caller: { owner: boolean }): PasskeyStatus {
  const passkeys = ctx.credentials.count();
  const firstUseOpen = ctx.credentials.firstUseOpen();
  return {
    owner: caller.owner,
    passkeys,
    hasCredentials: passkeys > 0,
    firstUseOpen,
    registrationOpen: firstUseOpen || caller.owner,
    enrolTokenConfigured: ctx.regToken !== undefined,
  };
}

export async function renameCredential(ctx: PasskeyContext, id: string, label: string): Promise<PublicCredential> {
  const clean = cleanLabel(label);
  if (clean === undefined) throw new AppError('BAD_REQUEST', 'label is required');
  await ctx.credentials.rename(id, clean);
  const renamed = ctx.credentials.find(id);
  if (!renamed) throw new AppError('NOT_FOUND', 'no such passkey');
  return toPublicCredential(renamed);
}

/**
 * Deletes a passkey and ends every session it opened. The last one stays when no owner token
 * exists (docs/contract.md, "How the desktop server behaves": 409), since nothing else could sign in afterwards.
 */
export async function deleteCredential(ctx: PasskeyContext, id: string): Promise<void> {
  if (!ctx.credentials.find(id)) throw new AppError('NOT_FOUND', 'no such passkey');
  if (ctx.credentials.count() === 1 && !ctx.ownerTokenExists) {
    throw new AppError('CONFLICT', 'the last passkey cannot be deleted while no owner token exists');
  }
  if (!(await ctx.credentials.remove(id))) throw new AppError('NOT_FOUND', 'no such passkey');
  await ctx.sessions.destroyByCredential(id);
  ctx.log.info('passkey deleted');
}
