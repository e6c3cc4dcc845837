/**
 * The relay poll: PUT /api/devices/relay every 5 s asking for at most 5
 * envelopes (docs/platform.md, "Errors"). Envelopes are handled concurrently while polling goes on,
 * but the poll never claims more than it has room for: a claimed envelope is consumed
 * (at most once, docs/platform.md, "Devices"), so claiming beyond what we can handle would only delay answers.
 */
import type { DeviceApi } from './device-api.ts';
import { backoffDelay } from './backoff.ts';
import { CADENCE, LIMITS, PATHS } from './limits.ts';
import { DECLINED_AFTER_STOP, type RelayMessage } from './relay-handler.ts';
import type { LoopTick } from './loop.ts';
import type { PlatformLog } from './types.ts';

/** Dependencies of the poller. */
export interface RelayPollerDeps {
  api: DeviceApi;
  handle: (message: RelayMessage) => Promise<void>;
  /**
   * Answers an envelope without running it, with `Error: <reason>`: one a poll still out when the
   * loop stopped (a disconnect, a shutdown) came back with, since the link was switched off or the
   * console is going down by the time it arrived, and one past what the claim asked for. Each was
   * consumed, so each is answered.
   */
  decline: (message: RelayMessage, reason: string) => Promise<void>;
  /** Whether the relay loop still runs; claimed envelopes are declined once it does not. */
  live: () => boolean;
  log: PlatformLog;
  pollMs?: number;
  max?: number;
}

/** The poll tick plus a way to wait for the envelopes still being handled. */
export interface RelayPoller {
  tick: LoopTick;
  /** Resolves when the poll still out has come back and every claimed envelope has been answered. */
  drain(): Promise<void>;
  inFlight(): number;
}

/**
 * How many claimed envelope ids are remembered to skip one handed over again. An undelivered
 * envelope dies after an hour (docs/platform.md, "Relay mailbox"), and at 5 per 5 s poll an hour
 * claims at most 3600.
 */
const SEEN_IDS = 4096;

/** Reads the messages of a poll answer, keeping only rows with an id. */
export function messagesOf(body: Record<string, unknown>): RelayMessage[] {
  const rows = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  return rows.flatMap((row) => {
    const r = row as { id?: unknown; payload?: unknown };
    return typeof r?.id === 'string' || typeof r?.id === 'number' ? [{ id: String(r.id), payload: r.payload }] : [];
  });
}

/** Creates the relay poller. */
export function createRelayPoller(deps: RelayPollerDeps): RelayPoller {
  const pollMs = deps.pollMs ?? CADENCE.pollMs;
  const max = deps.max ?? CADENCE.pollMax;
  const handling = new Set<Promise<void>>();
  // Envelope ids already claimed, oldest first: a claim is at most once, so an id seen again is the
  // platform handing the same envelope over twice, whose turn must not run again.
  const seen = new Set<string>();
  let failures = 0;
  // The poll still out: stop() waits for it too, or its envelopes would start after the drain ended.
  let polling: Promise<number> | null = null;

  const start = (message: RelayMessage, declined?: string): void => {
    const reason = deps.live() ? declined : DECLINED_AFTER_STOP;
    const job = (reason === undefined ? deps.handle(message) : deps.decline(message, reason)).finally(() =>
      handling.delete(job),
    );
    handling.add(job);
  };

  /**
   * Starts what a claim handed over: an envelope handed over before is skipped (neither run nor
   * answered again), and at most `room` run. A platform that hands over more than was asked must
   * not start a turn for each at once (each may move the robot); the rest are declined, up to the
   * most a claim may ever hold, and anything past that is only logged.
   */
  const startClaimed = (claimed: RelayMessage[], room: number): void => {
    const messages: RelayMessage[] = [];
    for (const message of claimed) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      messages.push(message);
    }
    if (messages.length < claimed.length)
      deps.log.warn('the platform handed over envelopes it had handed over before; they were skipped', {
        skipped: claimed.length - messages.length,
      });
    for (const id of seen) {
      if (seen.size <= SEEN_IDS) break;
      seen.delete(id);
    }
    if (messages.length > room)
      deps.log.warn('the platform handed over more envelopes than were asked for', {
        asked: room,
        got: messages.length,
      });
    const overClaim = `the robot asked for at most ${room} envelope(s); nothing was run`;
    messages.slice(0, LIMITS.relayClaimMax).forEach((message, i) => start(message, i < room ? undefined : overClaim));
  };

  /** One claim; resolves once its envelopes are started, with the wait before the next. */
  const poll = async (room: number): Promise<number> => {
    const out = await deps.api.call('PUT', PATHS.relay, { max: room });
    if (!out.ok) {
      // Back off on transport faults and a down worker; a 401 is the strike policy's business.
      if (out.failure.retryable) failures += 1;
      deps.log.debug('relay poll failed', { kind: out.failure.kind, failures });
      return backoffDelay(pollMs, failures);
    }
    failures = 0;
    startClaimed(messagesOf(out.value.body), room);
    return pollMs;
  };

  return {
    async tick() {
      const room = max - handling.size;
      if (room <= 0) return pollMs;
      const current = poll(room);
      polling = current;
      try {
        return await current;
      } finally {
        if (polling === current) polling = null;
      }
    },
    async drain() {
      while (polling !== null || handling.size > 0) {
        await polling?.catch(() => undefined);
        await Promise.allSettled([...handling]);
      }
    },
    inFlight: () => handling.size,
  };
}
