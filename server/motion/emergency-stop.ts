/**
 * The latched stop and its release. The latch engages FIRST, synchronously, so a request racing
 * the stop is refused rather than started; then, in parallel: every running daemon move is
 * cancelled, the reel aborted, speech silenced (stop_sound + wobble off: a cancelled recorded
 * move's sidecar sound keeps playing otherwise, daemon-api.md §3.2), the joystick stream ended
 * and the autonomous personas paused. A daemon that is down does not un-latch anything: the
 * stop still holds, and the answer says which part failed.
 */
import type { CredentialKind } from '../contract/ws.ts';
import type { Speaker } from '../speech/speaker.ts';
import type { Arbiter } from './arbiter.ts';
import type { PersonaRegistry } from './personas.ts';
import { receipt, type Emit } from './receipts.ts';
import type { Reel } from './reel.ts';
import type { StopLatch } from './stop-latch.ts';

export interface StopDeps {
  latch: StopLatch;
  arbiter: Arbiter;
  reel: Reel;
  speaker: Pick<Speaker, 'stop'>;
  personas: PersonaRegistry;
  emit: Emit;
}

export interface StopResult {
  latched: true;
  movesStopped: number;
  reelAborted: boolean;
  /** ok false: the latch holds, but some daemon calls failed (the robot may still be moving). */
  daemon: { ok: boolean; error?: string };
}

export async function emergencyStop(deps: StopDeps, credential: CredentialKind): Promise<StopResult> {
  deps.latch.engage(`stopped by ${credential} at ${new Date().toISOString()}; resume from the dashboard`);
  const reelAborted = deps.reel.status().running;
  deps.reel.abort('stop', credential);
  // Personas may take a while to pause (a service stop): never hold the stop's answer for them.
  void deps.personas.pauseAll('stop');
  const [moves, speech] = await Promise.all([deps.arbiter.stopAll(), deps.speaker.stop()]);
  const error = [moves.error, speech.error].filter((e): e is string => e !== undefined).join('; ');
  const daemon = error ? { ok: false, error } : { ok: true };
  const text = error
    ? `stop latched, but the daemon part failed: ${error}`
    : `stop: ${moves.stopped.length} move(s) cancelled, speech silenced; latched until resume`;
  deps.emit(receipt('stop', text, credential, { movesStopped: moves.stopped.length, reelAborted, daemonOk: !error }));
  return { latched: true, movesStopped: moves.stopped.length, reelAborted, daemon };
}

export interface ResumeResult {
  latched: false;
  /** Whether the stop was engaged before this call. */
  wasLatched: boolean;
}

export function resumeAfterStop(
  deps: Pick<StopDeps, 'latch' | 'personas' | 'emit'>,
  credential: CredentialKind,
): ResumeResult {
  const wasLatched = deps.latch.release(`resumed by ${credential} at ${new Date().toISOString()}`);
  // Personas paused by demo mode stay paused: the registry keeps each reason separately.
  void deps.personas.resumeAll('stop');
  const text = wasLatched ? 'resumed: motion allowed again' : 'resume: the stop was not engaged';
  deps.emit(receipt('resume', text, credential, { wasLatched }));
  return { latched: false, wasLatched };
}
