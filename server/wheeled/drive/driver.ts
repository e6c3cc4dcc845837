/**
 * Who a caller drives as. The autonomous persona holds a service token minted for the subject
 * "thinker" (or "thinker:<name>"); everyone else holding a key is the operator. The role comes
 * from the signed token, so a persona cannot claim to be the operator.
 */
import type { Caller } from '../../http/caller.ts';
import type { Driver } from './drive-controller.ts';

export const THINKER_SUBJECT = 'thinker';

export function driverOf(caller: Pick<Caller, 'subject'>): Driver {
  const subject = caller.subject;
  return subject === THINKER_SUBJECT || subject?.startsWith(`${THINKER_SUBJECT}:`) ? 'thinker' : 'operator';
}
