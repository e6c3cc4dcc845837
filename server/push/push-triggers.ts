/**
 * WHEN the cockpit pushes. A pure module: fed a health sample about once a second and
 * the events it cares about, it answers with the notices to send, usually none. Time comes in as
 * an argument, so tests drive it with a fake clock.
 *
 * Debouncing, per kind:
 * - daemon: an outage is news only once it has lasted `daemonAfterMs` (30 s: a daemon restart
 *   blips for a few seconds); "back" follows only an outage that was reported, and only once the
 *   daemon has stayed up for `daemonBackAfterMs`, so a flapping daemon gives one pair of notices.
 * - camera: lost for `cameraAfterMs`, told once, re-armed after the camera has been live again
 *   for as long. A camera lost while the daemon is down is the daemon's notice, not its own.
 * - stop: only when the latch goes from free to engaged, at most once per `repeatMs`.
 * - agent: only when no dashboard is open to see the answer, at most once per `repeatMs`.
 * - platform: every notify envelope; the platform already decided it is worth telling.
 */
import type { CameraHealth } from '../contract/health.ts';
import type { CredentialKind } from '../contract/ws.ts';
import type { PushNotice } from './kinds.ts';

export interface HealthSample {
  /** `unreachable`: no answer; `stopped`: it answers, but its backend is not running. */
  daemon: 'up' | 'unreachable' | 'stopped';
  /** How to name the daemon in a message: "the simulator" or its address. */
  where: string;
  camera: CameraHealth['status'];
}

export type TriggerEvent =
  /** The latched stop was pressed. `credential` is who pressed it (its own devices are skipped). */
  | { type: 'stop'; credential: string; by: CredentialKind }
  | { type: 'resume' }
  /** An Ask (persona dashboard) or fleet turn ended; `viewers` counts the open dashboards. */
  | { type: 'turn'; persona: 'dashboard' | 'fleet'; ok: boolean; text: string; viewers: number }
  /** A notify envelope from the platform. */
  | { type: 'notice'; title: string; body: string; tag: string; url: string };

export interface TriggerTimings {
  daemonAfterMs: number;
  daemonBackAfterMs: number;
  cameraAfterMs: number;
  repeatMs: number;
}

export const DEFAULT_TRIGGER_TIMINGS: Readonly<TriggerTimings> = Object.freeze({
  daemonAfterMs: 30_000,
  daemonBackAfterMs: 3_000,
  cameraAfterMs: 5_000,
  repeatMs: 10_000,
});

export interface PushTriggers {
  observe(sample: HealthSample, now: number): PushNotice[];
  event(event: TriggerEvent, now: number): PushNotice[];
}

export function createPushTriggers(timings: Partial<TriggerTimings> = {}): PushTriggers {
  const t = { ...DEFAULT_TRIGGER_TIMINGS, ...timings };
  const daemon = createDaemonWatch(t);
  const camera = createCameraWatch(t);
  let latched = false;
  const lastPush: Partial<Record<'stop' | 'agent', number>> = {};
  const spaced = (kind: 'stop' | 'agent', now: number): boolean => {
    const last = lastPush[kind];
    if (last !== undefined && now - last < t.repeatMs) return false;
    lastPush[kind] = now;
    return true;
  };
  return {
    observe(sample, now) {
      const down = sample.daemon !== 'up';
      return [...daemon(sample, now), ...camera(sample.camera === 'lost' && !down, sample.camera === 'live', now)];
    },
    event(event, now) {
      switch (event.type) {
        case 'stop': {
          const wasLatched = latched;
          latched = true;
          if (wasLatched || !spaced('stop', now)) return [];
          return [stopNotice(event.credential, event.by)];
        }
        case 'resume':
          latched = false;
          return [];
        case 'turn':
          // An open dashboard shows the answer as it streams: a push would only repeat it.
          if (event.viewers > 0 || !spaced('agent', now)) return [];
          return [turnNotice(event)];
        case 'notice':
          return [
            {
              kind: 'platform',
              title: event.title,
              body: event.body,
              url: event.url,
              tag: `platform:${event.tag || 'notice'}`,
            },
          ];
      }
    },
  };
}

function createDaemonWatch(t: TriggerTimings): (sample: HealthSample, now: number) => PushNotice[] {
  let downSince: number | undefined;
  let upSince: number | undefined;
  let reported = false;
  return (sample, now) => {
    if (sample.daemon !== 'up') {
      upSince = undefined;
      downSince ??= now;
      if (reported || now - downSince < t.daemonAfterMs) return [];
      reported = true;
      const over = duration(t.daemonAfterMs);
      const body =
        sample.daemon === 'stopped'
          ? `The robot daemon (${sample.where}) answers, but its backend has been stopped for over ${over}.`
          : `No answer from ${sample.where} for over ${over}.`;
      const title = sample.daemon === 'stopped' ? 'Robot daemon stopped' : 'Robot daemon unreachable';
      return [{ kind: 'daemon', title, body, url: '/', tag: 'daemon', urgent: true }];
    }
    if (!reported) {
      downSince = undefined;
      return [];
    }
    upSince ??= now;
    if (now - upSince < t.daemonBackAfterMs) return [];
    const outage = duration(upSince - (downSince ?? upSince));
    reported = false;
    downSince = upSince = undefined;
    const body = `The cockpit is talking to ${sample.where} again, after ${outage} without it.`;
    return [{ kind: 'daemon', title: 'Robot daemon back', body, url: '/', tag: 'daemon' }];
  };
}

function createCameraWatch(t: TriggerTimings): (lost: boolean, live: boolean, now: number) => PushNotice[] {
  let lostSince: number | undefined;
  let liveSince: number | undefined;
  let reported = false;
  return (lost, live, now) => {
    if (!lost) {
      lostSince = undefined;
      liveSince = live ? (liveSince ?? now) : undefined;
      if (reported && liveSince !== undefined && now - liveSince >= t.cameraAfterMs) reported = false;
      return [];
    }
    liveSince = undefined;
    lostSince ??= now;
    if (reported || now - lostSince < t.cameraAfterMs) return [];
    reported = true;
    const body = `The robot camera has sent no pictures for over ${duration(t.cameraAfterMs)}.`;
    return [{ kind: 'camera', title: 'Camera lost', body, url: '/', tag: 'camera' }];
  };
}

function stopNotice(credential: string, by: CredentialKind): PushNotice {
  return {
    kind: 'stop',
    title: 'STOP engaged',
    body: `${stopperName(by)} engaged the latched stop. The robot will not move until someone resumes from the dashboard.`,
    url: '/',
    tag: 'stop',
    exceptCredential: credential,
    urgent: true,
  };
}

function turnNotice(event: Extract<TriggerEvent, { type: 'turn' }>): PushNotice {
  const what = event.persona === 'dashboard' ? 'Ask' : 'Fleet turn';
  const title = event.ok ? `${what} finished` : `${what} failed`;
  const body = event.text.trim() || (event.ok ? 'The agent finished without a text answer.' : 'No reason given.');
  // The dashboard's Agent page (renderer/src/features/shell/routes.ts), where the answer is.
  return { kind: 'agent', title, body, url: '/#/agent', tag: 'agent' };
}

function stopperName(kind: CredentialKind): string {
  switch (kind) {
    case 'passkey':
      return 'A signed-in browser or phone';
    case 'token':
      return 'A client with the owner token';
    case 'local-window':
      return 'The desktop app';
    case 'loopback':
      return 'A local script';
    case 'system':
      return 'The robot itself';
  }
}

/** "45 s", "3 min", "2 h 5 min": how long an outage lasted, as a person would say it. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
