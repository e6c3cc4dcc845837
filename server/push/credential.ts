/**
 * Which credential a subscription belongs to, and which one caused a notice: the passkey's
 * credential id, or the kind for the owner token ('token') and the desktop window
 * ('local-window', whose sessions carry that id already). Only callers with a key get here.
 */
import type { Caller } from '../http/caller.ts';

export function subscriberOf(caller: Pick<Caller, 'kind' | 'credentialId'>): string {
  return caller.kind === 'passkey' ? (caller.credentialId ?? 'passkey') : caller.kind;
}
