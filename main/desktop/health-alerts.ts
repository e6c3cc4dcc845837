/**
 * When the desktop app raises a native notification. Fed a cockpit snapshot about
 * once a second, it speaks only on transitions, and only after a condition has lasted: a daemon
 * that blips for a few seconds while it restarts is not news, a daemon gone for half a minute is.
 * Each alert that went out is followed by a "back" notice when the condition clears.
 */
import type { CredentialKind } from '../../server/index.ts';
import { stopEngaged, type CockpitSnapshot } from './tray-model.ts';

export interface DesktopNotice {
  /** Stable per kind of alert: a newer notice of the same tag replaces the older one. */
  tag: string;
  title: string;
  body: string;
  /** Shown until dismissed, where the platform supports it. */
  urgent: boolean;
}

export interface AlertTimings {
  /** How long the daemon must be unreachable before the operator is told. */
  daemonAfterMs: number;
  /** How long the camera must be lost before the operator is told. */
  cameraAfterMs: number;
}

export const DEFAULT_ALERT_TIMINGS: AlertTimings = { daemonAfterMs: 30_000, cameraAfterMs: 5_000 };

export interface HealthAlerts {
  /** The notices this snapshot calls for, usually none. */
  observe(snapshot: CockpitSnapshot, now: number): DesktopNotice[];
}

/** A condition that must hold for `afterMs` before it is reported, then reports its end once. */
class Debounced {
  #since: number | undefined;
  #reported = false;

  constructor(readonly afterMs: number) {}

  /** 'raised' once the condition has held long enough, 'cleared' when a raised one ends. */
  update(active: boolean, now: number): 'raised' | 'cleared' | undefined {
    if (!active) {
      const was = this.#reported;
      this.#since = undefined;
      this.#reported = false;
      return was ? 'cleared' : undefined;
    }
    this.#since ??= now;
    if (this.#reported || now - this.#since < this.afterMs) return undefined;
    this.#reported = true;
    return 'raised';
  }
}

export function createHealthAlerts(timings: AlertTimings = DEFAULT_ALERT_TIMINGS): HealthAlerts {
  const daemon = new Debounced(timings.daemonAfterMs);
  const camera = new Debounced(timings.cameraAfterMs);
  let latched: boolean | undefined;
  return {
    observe(snapshot, now) {
      const notices: DesktopNotice[] = [];
      const seconds = Math.round(timings.daemonAfterMs / 1000);
      const where = snapshot.health.daemon.simulated ? 'the simulator' : snapshot.health.daemon.url;
      switch (daemon.update(!snapshot.health.daemon.reachable, now)) {
        case 'raised':
          notices.push(
            notice('daemon', 'Robot daemon unreachable', `No answer from ${where} for over ${seconds} s.`, true),
          );
          break;
        case 'cleared':
          notices.push(notice('daemon', 'Robot daemon back', `The cockpit is talking to ${where} again.`));
          break;
      }
      switch (camera.update(snapshot.health.camera.status === 'lost', now)) {
        case 'raised':
          notices.push(notice('camera', 'Camera lost', 'The robot camera stopped sending pictures.', true));
          break;
        case 'cleared':
          notices.push(notice('camera', 'Camera back', 'The robot camera is sending pictures again.'));
          break;
      }
      const engaged = stopEngaged(snapshot);
      // The first snapshot is the baseline; after it, only a stop newly engaged by someone else.
      if (latched === false && engaged) {
        const by = stoppedBy(snapshot.stop?.detail);
        if (by !== 'local-window')
          notices.push(
            notice(
              'stop',
              'STOP engaged',
              `${stopperName(by)} engaged the latched stop. Resume from the dashboard or the tray.`,
              true,
            ),
          );
      }
      latched = engaged;
      return notices;
    },
  };
}

function notice(tag: string, title: string, body: string, urgent = false): DesktopNotice {
  return { tag, title, body, urgent };
}

const KINDS: readonly CredentialKind[] = ['token', 'passkey', 'loopback', 'local-window', 'system'];

/**
 * Who engaged the stop, from the latch's detail "stopped by <credential> at <time>; …" written
 * synchronously when it engages (server/motion/emergency-stop.ts). The receipt on the event log
 * comes only after the daemon calls, so the detail is the first place the answer is known. An
 * unrecognised detail reads as someone else: telling the operator once too often is the safe side.
 */
export function stoppedBy(detail: string | undefined): CredentialKind | undefined {
  const match = /^stopped by ([a-z-]+) /.exec(detail ?? '');
  const kind = match?.[1] as CredentialKind | undefined;
  return kind !== undefined && KINDS.includes(kind) ? kind : undefined;
}

function stopperName(kind: CredentialKind | undefined): string {
  switch (kind) {
    case 'passkey':
      return 'A signed-in browser or phone';
    case 'token':
      return 'A client with the owner token';
    case 'loopback':
      return 'A local script';
    case 'system':
      return 'The robot itself';
    default:
      return 'Another client';
  }
}
