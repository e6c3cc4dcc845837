/**
 * Registry of autonomous personas (the thinker registers here later): demo mode pauses them so
 * manual moves are not overlapped (cockpit-api.md, states), and the latched stop pauses them
 * too. A persona stays paused while ANY reason stands, so ending demo mode during a latched
 * stop does not wake the thinker behind the operator's back.
 */
import type { Log } from '../log.ts';

export interface Persona {
  pause(): void | Promise<void>;
  resume(): void | Promise<void>;
}

export type PauseReason = 'demo' | 'stop';

export interface PersonaStatus {
  paused: boolean;
  reasons: PauseReason[];
}

export interface PersonaRegistry {
  /** Registers a persona (paused at once if a reason already stands); returns its unregister. */
  register(name: string, persona: Persona): () => void;
  pauseAll(reason: PauseReason): Promise<void>;
  resumeAll(reason: PauseReason): Promise<void>;
  reasons(): PauseReason[];
  status(): Record<string, PersonaStatus>;
}

export function createPersonaRegistry(log: Log): PersonaRegistry {
  const personas = new Map<string, Persona>();
  const reasons = new Set<PauseReason>();

  const call = async (name: string, persona: Persona, what: 'pause' | 'resume'): Promise<void> => {
    try {
      await persona[what]();
    } catch (err) {
      log.warn(`persona ${name} failed to ${what}`, { error: String((err as Error)?.message ?? err) });
    }
  };
  const each = (what: 'pause' | 'resume') =>
    Promise.all([...personas].map(([n, p]) => call(n, p, what))).then(() => undefined);

  return {
    register(name, persona) {
      personas.set(name, persona);
      if (reasons.size > 0) void call(name, persona, 'pause');
      return () => {
        if (personas.get(name) === persona) personas.delete(name);
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
      const out: Record<string, PersonaStatus> = {};
      for (const name of personas.keys()) out[name] = { paused: reasons.size > 0, reasons: [...reasons] };
      return out;
    },
  };
}
