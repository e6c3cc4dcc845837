/**
 * What the state feed's facts mean for the operator: the daemon's presence and the named
 * problems that /api/health and the dashboard show. Pure, so each case reads on its own.
 */
import type { Presence } from '../contract/state.ts';
import type { DaemonStatus } from './wire.ts';

export interface FeedFacts {
  /** A sample arrived within the silence window. */
  fresh: boolean;
  everConnected: boolean;
  status: DaemonStatus | undefined;
  /** Why the last status poll got no answer; null when it did. */
  statusError: string | null;
  polling: boolean;
  silenceMs: number;
}

export function presenceOf(facts: FeedFacts): Presence {
  // A stopped or unreachable daemon is down even if its last frame is still recent.
  if (facts.statusError !== null || (facts.status && facts.status.state !== 'running')) return 'down';
  if (facts.fresh) return 'connected';
  return facts.everConnected ? 'reconnecting' : 'connecting';
}

export function problemsOf(facts: FeedFacts): Record<string, string> {
  const out: Record<string, string> = {};
  const { status } = facts;
  if (facts.statusError) out['daemon:unreachable'] = facts.statusError;
  else if (status && status.state !== 'running') {
    out['daemon:stopped'] = `daemon state is ${status.state}${status.error ? `: ${status.error}` : ''}`;
  }
  if (!facts.fresh && facts.everConnected) out['stream:silent'] = `no state frame for over ${facts.silenceMs} ms`;
  if (facts.polling) out['stream:polling'] = 'state WebSocket unavailable; polling REST instead';
  return out;
}
