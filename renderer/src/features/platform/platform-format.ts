/**
 * Pure helpers of the platform card: the one-word state of the link, ages of heartbeats, the
 * firmware line, and the checks the enrolment and channel forms make before asking the cockpit
 * (which checks again and has the last word).
 */
import type { EnrolInput, PlatformFirmware, PlatformStatus } from '../../lib/api/platform-api.ts';
import type { Tone } from '../../lib/ui/tone.ts';

export function platformHeadline(status: PlatformStatus | null): { tone: Tone; label: string } {
  if (!status) return { tone: 'idle', label: '' };
  if (!status.available) return { tone: 'idle', label: 'Not available' };
  if (!status.enrolled) return { tone: 'idle', label: 'Not enrolled' };
  if (status.halted) return { tone: 'bad', label: 'Halted' };
  if (!status.connected) return { tone: 'idle', label: 'Disconnected' };
  return status.online ? { tone: 'ok', label: 'Online' } : { tone: 'warn', label: 'Offline' };
}

/** "12 s ago", "3 min ago", "2 h ago", "4 d ago"; "never" without a time. */
export function ago(at: number | null, now: number): string {
  if (at === null) return 'never';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 90) return `${s} s ago`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min ago`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h ago` : `${Math.round(h / 24)} d ago`;
}

export function firmwareLine(f: PlatformFirmware | null): string {
  if (!f) return '—';
  const parts: string[] = [f.state];
  if (f.currentVersion) parts.push(`running ${f.currentVersion}`);
  if (f.available && f.available !== f.currentVersion) parts.push(`${f.available} available`);
  if (f.staged) parts.push(`${f.staged} staged`);
  return parts.join(' · ');
}

/** Why the robot was halted, in words, with what to do. */
export function haltedText(halted: NonNullable<PlatformStatus['halted']>): string {
  const why =
    halted.reason === 'token_rejected' ? 'The platform keeps refusing this robot’s device token.' : halted.message;
  return `${why} Relayed tasks and firmware checks are paused; enrol again with a new token.`;
}

const CHANNEL = /^[a-z0-9_-]{1,32}$/;

export function channelProblem(channel: string): string | null {
  return CHANNEL.test(channel) ? null : 'A channel is 1–32 of a–z, 0–9, _ and -.';
}

/** What is missing or malformed in the enrolment form, or null. */
export function enrolProblem(input: EnrolInput): string | null {
  const url = input.platformUrl.trim();
  if (url === '' || input.deviceId.trim() === '' || input.token.trim() === '')
    return 'Fill in the platform URL, the device id and the device token.';
  if (!/^https?:\/\/\S+$/i.test(url)) return 'The platform URL starts with https:// (http:// only on this computer).';
  return null;
}
