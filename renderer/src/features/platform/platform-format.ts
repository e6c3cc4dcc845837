/**
 * Pure helpers of the platform card: the one-word state of the link, ages of heartbeats, and the
 * checks the enrolment and channel forms make before asking the cockpit (which checks again and
 * has the last word). Firmware and owner-session wording lives in platform-wording.ts.
 */
import type { ConsolePlatformStatus } from '../../lib/api/platform-api.ts';
import type {
  PlatformEndpointEnrolBody,
  PlatformEnrolInput,
  PlatformSessionEnrolInput,
  PlatformStatus,
} from '../../../../server/contract/index.ts';
import type { Tone } from '../../lib/ui/tone.ts';

export function platformHeadline(status: ConsolePlatformStatus | null): { tone: Tone; label: string } {
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

/** Why the robot was halted, in words, with what to do. */
export function haltedText(halted: NonNullable<PlatformStatus['halted']>): string {
  const why =
    halted.reason === 'token_rejected'
      ? 'The platform keeps refusing this robot’s device token.'
      : halted.reason === 'token_rotated'
        ? 'The owner replaced this robot’s device token.'
        : halted.reason === 'device_removed'
          ? 'This robot was removed from the owner’s devices.'
          : halted.message;
  const next = halted.reason === 'token_rotated' ? 'adopt the new token' : 'enrol again with a new token';
  return `${why} Relayed tasks and firmware checks are paused; ${next}.`;
}

const CHANNEL = /^[a-z0-9_-]{1,32}$/;

export function channelProblem(channel: string): string | null {
  return CHANNEL.test(channel) ? null : 'A channel is 1–32 of a–z, 0–9, _ and -.';
}

/** The cockpit takes https, or http on a host that never leaves the machine. */
function urlProblem(url: string): string | null {
  return /^https?:\/\/\S+$/i.test(url.trim())
    ? null
    : 'The platform URL starts with https:// (http:// only on this computer).';
}

/** What is missing or malformed in the enrolment form with a device token, or null. */
export function enrolProblem(input: PlatformEnrolInput): string | null {
  if (input.platformUrl.trim() === '' || input.deviceId.trim() === '' || input.token.trim() === '')
    return 'Fill in the platform URL, the device id and the device token.';
  return urlProblem(input.platformUrl);
}

/** The route's limit on a device name (POST /api/console/platform/enrol-session). */
export const DEVICE_NAME_MAX = 64;

/** What is missing or malformed in the enrolment form with a session token, or null. */
export function sessionEnrolProblem(input: Omit<PlatformSessionEnrolInput, 'keepSession'>): string | null {
  if (input.platformUrl.trim() === '' || input.sessionToken.trim() === '' || input.name.trim() === '')
    return 'Fill in the platform URL, the session token and a name for this robot.';
  if (input.name.trim().length > DEVICE_NAME_MAX) return `The name is at most ${DEVICE_NAME_MAX} characters.`;
  return urlProblem(input.platformUrl);
}

/**
 * What is missing or malformed in the endpoint form, or null. The platform dials only https on a
 * public host name; the client checks that host precisely, the form only the scheme.
 */
export function endpointEnrolProblem(input: PlatformEndpointEnrolBody): string | null {
  if (Object.values(input).some((v) => v.trim() === ''))
    return 'Fill in the platform URL, the session token, a name and the address the platform should dial.';
  if (input.name.trim().length > DEVICE_NAME_MAX) return `The name is at most ${DEVICE_NAME_MAX} characters.`;
  if (!/^https:\/\/\S+$/i.test(input.url.trim())) return 'The platform dials this robot over https:// only.';
  return urlProblem(input.platformUrl);
}

/** The route's limit on a pasted session token (PUT /api/console/platform/owner-session). */
const SESSION_TOKEN_MAX = 512;

export function sessionTokenProblem(token: string): string | null {
  const trimmed = token.trim();
  if (trimmed === '') return 'Paste a session token first.';
  if (trimmed.length > SESSION_TOKEN_MAX) return `A session token is at most ${SESSION_TOKEN_MAX} characters.`;
  return null;
}
