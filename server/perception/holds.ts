/**
 * Named tracking holds (docs/contract.md, "Face tracking and holds"): a name maps to an
 * expiry, and any live hold pauses face tracking. Every hold expires on its own, so a caller
 * that crashes mid-move or mid-sentence can never freeze the head.
 */
import type { Clock } from '../clock.ts';
import type { LiveHold } from '../contract/perception.ts';
import { AppError } from '../errors.ts';

/** Seconds. The default and the clamp are the reference's numbers (20 s, 0.5–120 s). */
export const HOLD_TTL = Object.freeze({ default: 20, min: 0.5, max: 120 });

/** Longest hold name accepted from the HTTP edge. */
export const HOLD_NAME_MAX = 64;

/**
 * A new hold name from the HTTP edge (POST /api/tracking/hold) is refused while this many holds
 * stand. Every live hold is listed in GET /api/tracking, in each hold answer and in the `tracking`
 * frame to every /ws client, so the table is bounded as other tables are (MAX_MANUAL_PEERS in
 * server/discovery/fleet-store.ts). The cockpit's own holds are a handful at once (`speaking`:
 * server/speech/speaker.ts; `look` or one `emotion:<move>` per move: server/motion/arbiter.ts).
 */
export const HOLD_MAX = 32;

/** Brings a requested TTL into 0.5–120 s; an absent one is the 20 s default. */
export function clampTtl(ttlSeconds: number | undefined): number {
  if (ttlSeconds === undefined || !Number.isFinite(ttlSeconds)) return HOLD_TTL.default;
  return Math.min(HOLD_TTL.max, Math.max(HOLD_TTL.min, ttlSeconds));
}

export interface HoldTable {
  /** Sets (or renews) a hold; the TTL must already be clamped. Never refused: the cockpit's own holds use it. */
  set(name: string, ttlSeconds: number): void;
  /**
   * For a hold asked from the HTTP edge, before `set`: throws CONFLICT when `name` is not standing
   * and HOLD_MAX holds already are. Renewing a standing hold always passes.
   */
  admit(name: string): void;
  /** Sets a hold to end at an absolute time (epoch ms), e.g. the rest of a sentence. */
  setUntil(name: string, until: number): void;
  /** Returns whether the hold was live. */
  clear(name: string): boolean;
  has(name: string): boolean;
  /** Live holds by name, expired ones dropped. */
  live(): LiveHold[];
  any(): boolean;
}

export function createHoldTable(clock: Clock): HoldTable {
  const expiry = new Map<string, number>();
  const prune = (): void => {
    const now = clock.now();
    for (const [name, until] of expiry) if (until <= now) expiry.delete(name);
  };
  return {
    set(name, ttlSeconds) {
      expiry.set(name, clock.now() + ttlSeconds * 1000);
    },
    admit(name) {
      prune();
      if (expiry.has(name) || expiry.size < HOLD_MAX) return;
      throw new AppError(
        'CONFLICT',
        `at most ${HOLD_MAX} tracking holds can stand at once; release one or let one expire`,
      );
    },
    setUntil(name, until) {
      if (until > clock.now()) expiry.set(name, until);
    },
    clear(name) {
      prune();
      return expiry.delete(name);
    },
    has(name) {
      prune();
      return expiry.has(name);
    },
    live() {
      prune();
      const now = clock.now();
      return [...expiry]
        .map(([name, until]) => ({ name, remaining: Math.round((until - now) / 100) / 10 }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    any() {
      prune();
      return expiry.size > 0;
    },
  };
}
