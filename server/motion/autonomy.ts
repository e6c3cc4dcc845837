/**
 * Registry of what moves the robot on its own (the thinker persona registers here): demo mode
 * pauses it so manual moves are not overlapped (docs/contract.md, "States"), and the latched stop pauses it
 * too. A persona stays paused while ANY reason stands, so ending demo mode during a latched
 * stop does not wake the thinker behind the operator's back.
 */
import type { Log } from '../log.ts';

export interface Autonomous {
  pause(): void | Promise<void>;
  resume(): void | Promise<void>;
}

export type PauseReason = 'demo' | 'stop';

export interface AutonomyStatus {
  paused: boolean;
  reasons: PauseReason[];
}

export interface AutonomyRegistry {
  /** Registers a persona (paused at once if a reason already stands); returns its unregister. */
  register(name: string, persona: Autonomous): () => void;
  pauseAll(reason: PauseReason): Promise<void>;
  resumeAll(reason: PauseReason): Promise<void>;
  reasons(): PauseReason[];
  status(): Record<string, AutonomyStatus>;
}

export function createAutonomyRegistry(log: Log): AutonomyRegistry {
  const registered = new Map<string, Autonomous>();
  const reasons = new Set<PauseReason>();

  const call = async (name: string, persona: Autonomous, what: 'pause' | 'resume'): Promise<void> => {
    try {
      await persona[what]();
    } catch (err) {
      log.warn(`persona ${name} failed to ${what}`, { error: String((err as Error)?.message ?? err) });
    }
  };
  const each = (what: 'pause' | 'resume') =>
    Promise.all([...registered].map(([n, p]) => call(n, p, what))).then(() => undefined);

  return {
    register(name, persona) {
      registered.set(name, persona);
      if (reasons.size > 0) void call(name, persona, 'pause');
      return () => {
        if (registered.get(name) === persona) registered.delete(name);
      };
    },
    async pauseAll(reason) {
      const wasPaused = reasons.size > 0;
      reasons.add(reason);
      if (!wasPaused) await each('pause');
    },
    async resumeAll(reason) {
      if (!reasons.delete(reason) || reasons.size > 0) return;
      await each('resume');
    },
    reasons: () => [...reasons],
    status() {
      const out: Record<string, AutonomyStatus> = {};
      for (const name of registered.keys()) out[name] = { paused: reasons.size > 0, reasons: [...reasons] };
      return out;
    },
  };
}
