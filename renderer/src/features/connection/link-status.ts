/**
 * What the dashboard says about its link to the robot. Two presences stack: the dashboard's
 * socket to the cockpit, and the cockpit's connection to the robot daemon (carried in each state
 * frame). The socket is judged first, because a dead socket makes the daemon presence stale.
 */
import type { Presence } from '../../../../server/contract/index.ts';
import type { SocketPresence } from '../../lib/api/state-socket.ts';
import type { Tone } from '../../lib/ui/tone.ts';
import { formatCountdown } from './link-format.ts';

/** A state frame older than this is stale: the feed froze without the socket noticing. */
export const STALE_AFTER_MS = 2000;

export interface LinkInput {
  socket: SocketPresence;
  /** The daemon presence of the last state frame; null before the first frame. */
  daemon: Presence | null;
  ageMs: number | null;
}

export interface LinkStatus {
  label: string;
  tone: Tone;
}

export function describeLink({ socket, daemon, ageMs }: LinkInput): LinkStatus {
  if (socket === 'unauthorized') return { label: 'Signed out', tone: 'bad' };
  if (socket === 'down') return { label: 'Cockpit unreachable', tone: 'bad' };
  if (socket === 'reconnecting') return { label: 'Reconnecting', tone: 'warn' };
  if (socket === 'connecting') return { label: 'Connecting', tone: 'idle' };
  if (daemon === null) return { label: 'Waiting for state', tone: 'idle' };
  if (daemon === 'down') return { label: 'Daemon down', tone: 'bad' };
  if (daemon === 'reconnecting') return { label: 'Daemon reconnecting', tone: 'warn' };
  if (daemon === 'connecting') return { label: 'Daemon connecting', tone: 'idle' };
  if (ageMs !== null && ageMs > STALE_AFTER_MS) return { label: 'Stale', tone: 'warn' };
  return { label: 'Live', tone: 'ok' };
}

export interface Trouble {
  tone: Tone;
  title: string;
  detail: string;
  /** Whether a "Retry now" button makes sense (the socket is waiting to reconnect). */
  canRetry: boolean;
}

/** The banner above the cards; null while everything is fine or still starting. */
export function describeTrouble(input: LinkInput, retryInMs: number | null): Trouble | null {
  const when = retryInMs === null ? 'shortly' : formatCountdown(retryInMs);
  const frozen =
    input.daemon === null ? 'No robot state has arrived yet.' : 'The values shown are the last ones received.';
  if (input.socket === 'reconnecting') {
    return {
      tone: 'warn',
      title: 'Connection to the cockpit lost',
      detail: `Reconnecting ${when}. ${frozen}`,
      canRetry: true,
    };
  }
  if (input.socket === 'down') {
    return {
      tone: 'bad',
      title: 'The cockpit server does not answer',
      detail: `Trying again ${when}. Check that the cockpit is running and that this device can reach it. ${frozen}`,
      canRetry: true,
    };
  }
  if (input.socket !== 'connected') return null;
  if (input.daemon === 'down') {
    return {
      tone: 'bad',
      title: 'The robot daemon is down',
      detail: 'The cockpit is running but cannot reach the robot. The pose shown is the last one received.',
      canRetry: false,
    };
  }
  if (input.daemon === 'reconnecting') {
    return {
      tone: 'warn',
      title: 'Reconnecting to the robot daemon',
      detail: 'The pose shown may be out of date.',
      canRetry: false,
    };
  }
  if (input.daemon !== null && input.ageMs !== null && input.ageMs > STALE_AFTER_MS) {
    return {
      tone: 'warn',
      title: 'Robot state is not updating',
      detail: 'The socket is open but no fresh state arrives.',
      canRetry: false,
    };
  }
  return null;
}
