/**
 * The latched stop and its release. The latch engages FIRST, synchronously, so a request racing
 * the stop is refused rather than started; then, in parallel: every running daemon move is
 * cancelled, the reel aborted, speech silenced (stop_sound + wobble off: a cancelled recorded
 * move's sidecar sound keeps playing otherwise, docs/daemon.md, "Moves"), the joystick stream ended
 * and the autonomous personas paused, and the robot's app stopped through the daemon (checked
 * gone afterwards). A daemon that is down does not un-latch anything: the stop still holds, and
 * the answer says which part failed. The receipt lists what was ended; resume does not restart
 * the app, and its receipt says so.
 */
import type { AppStopReport } from '../contract/apps.ts';
import type { StopResult } from '../contract/motion.ts';
import type { CredentialKind } from '../contract/ws.ts';
import type { Speaker } from '../speech/speaker.ts';
import type { Arbiter } from './arbiter.ts';
import type { AutonomyRegistry } from './autonomy.ts';
import { receipt, type Emit } from './receipts.ts';
import type { Reel } from './reel.ts';
import type { StopHold } from '../holds.ts';
import type { StopLatch } from './stop-latch.ts';

/**
 * What else a stop ends, owned by other features and given to Control when it is built: the
 * robot's app (stopped through the daemon, then checked gone) and the agent's turns (aborted at
 * once, right after the latch: a turn left to notice the latch by itself could miss a stop that
 * was resumed before it looked, and move the robot after the stop).
 */
export interface StopExtras {
  app?: () => Promise<AppStopReport>;
  /** Aborts the agent's running turns and answers how many there were. */
  abortTurns?: () => number;
}

/**
 * A stop as it happened, for whoever must know who pressed it beyond the receipt's kind of
 * credential: two phones with two passkeys are both `passkey` on the receipt, and Web Push skips
 * only the devices of the one that pressed it (server/push/push-service.ts).
 */
export interface StopNotice {
  credential: CredentialKind;
  /** The session's credential id (which passkey), when the stop came from a session; else absent. */
  credentialId: string | undefined;
  result: StopResult;
}

export interface StopDeps {
  latch: StopLatch;
  /** Face tracking, paused from the stop until the resume. */
  tracking: StopHold;
  arbiter: Arbiter;
  reel: Reel;
  speaker: Pick<Speaker, 'stop'>;
  autonomy: AutonomyRegistry;
  emit: Emit;
  /** The joystick stream was live when the stop came. */
  joystickActive?: boolean;
  extras?: StopExtras;
  /** Control's memory of the app the last stop ended, for the resume receipt. */
  memo?: StopMemo;
  /** Hears each stop once its receipt is out. */
  onStop?: (stop: StopNotice) => void;
}

export interface StopMemo {
  appStopped: string | null;
}

const NO_APP: AppStopReport = { name: null, stopped: false };

export type { StopResult };

/** `credentialId` names the passkey that pressed it, when one did (StopNotice). */
export async function emergencyStop(
  deps: StopDeps,
  credential: CredentialKind,
  credentialId?: string,
): Promise<StopResult> {
  deps.latch.engage(`stopped by ${credential} at ${new Date().toISOString()}; resume from the dashboard`);
  const reelAborted = deps.reel.status().running;
  deps.reel.abort('stop', credential);
  // Before the moves' holds are released below: tracking must not take the head in between.
  deps.tracking.stopLatched(true);
  const activePersonas = Object.values(deps.autonomy.status()).filter((p) => !p.paused).length;
  const turns = deps.extras?.abortTurns?.() ?? 0;
  // Personas may take a while to pause (a service stop): never hold the stop's answer for them.
  void deps.autonomy.pauseAll('stop');
  const [moves, speech, app] = await Promise.all([
    deps.arbiter.stopAll(),
    deps.speaker.stop(),
    deps.extras?.app?.() ?? Promise.resolve(NO_APP),
  ]);
  const appError = app.error ? `app${app.name === null ? '' : ` ${app.name}`}: ${app.error}` : undefined;
  const error = [moves.error, speech.error, appError].filter((e): e is string => e !== undefined).join('; ');
  const daemon = error ? { ok: false, error } : { ok: true };
  const stopped = [
    // A daemon that did not answer may still run moves nobody could list or stop: say so, as for speech and the app.
    moves.error
      ? `${moves.stopped.length} move(s) cancelled, others NOT confirmed stopped`
      : `${moves.stopped.length} move(s) cancelled`,
    ...(reelAborted ? ['reel aborted'] : []),
    speech.error ? 'speech NOT confirmed silenced' : 'speech silenced',
    ...(deps.joystickActive ? ['joystick ended'] : []),
    ...(activePersonas > 0 ? [`${activePersonas} persona(s) paused`] : []),
    ...(turns > 0 ? [`${turns} agent turn(s) cancelled`] : []),
    app.name === null
      ? app.error
        ? 'app status unknown'
        : 'no app running'
      : app.stopped
        ? `app ${app.name} stopped`
        : `app ${app.name} NOT confirmed stopped`,
  ];
  const text = error
    ? `stop latched, but the daemon part failed: ${error}; ${stopped.join(', ')}`
    : `stop: ${stopped.join(', ')}; latched until resume`;
  deps.emit(
    receipt('stop', text, credential, {
      movesStopped: moves.stopped.length,
      reelAborted,
      daemonOk: !error,
      app: app.name,
      appStopped: app.stopped,
      stopped,
    }),
  );
  if (deps.memo) deps.memo.appStopped = app.stopped ? app.name : null;
  const result: StopResult = { latched: true, movesStopped: moves.stopped.length, reelAborted, daemon, app, stopped };
  deps.onStop?.({ credential, credentialId, result });
  return result;
}

export interface ResumeResult {
  latched: false;
  /** Whether the stop was engaged before this call. */
  wasLatched: boolean;
}

export function resumeAfterStop(
  deps: Pick<StopDeps, 'latch' | 'tracking' | 'autonomy' | 'emit' | 'memo'>,
  credential: CredentialKind,
): ResumeResult {
  const wasLatched = deps.latch.release(`resumed by ${credential} at ${new Date().toISOString()}`);
  deps.tracking.stopLatched(false);
  // Personas paused by demo mode stay paused: the registry keeps each reason separately.
  void deps.autonomy.resumeAll('stop');
  const app = wasLatched ? (deps.memo?.appStopped ?? null) : null;
  if (wasLatched && deps.memo) deps.memo.appStopped = null;
  const base = wasLatched ? 'resumed: motion allowed again' : 'resume: the stop was not engaged';
  // Resuming never restarts the app the stop ended: an app starts only when someone starts it.
  const text = app ? `${base}; app ${app} stays stopped (start it again from the apps page)` : base;
  deps.emit(receipt('resume', text, credential, app ? { wasLatched, appNotRestarted: app } : { wasLatched }));
  return { latched: false, wasLatched };
}
