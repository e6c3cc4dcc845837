/**
 * What the camera view says about itself, from the facts it has: the socket's presence, the
 * camera health the cockpit reports (live, starting, lost, off) and whether pictures are
 * actually arriving here. Pictures on screen are the strongest evidence; health explains gaps.
 */
import type { CameraHealth } from '../../../../server/contract/index.ts';
import type { SocketPresence } from '../../lib/api/state-socket.ts';
import type { Tone } from '../../lib/ui/tone.ts';

export type CameraStatus = CameraHealth['status'];

/** fresh: a picture drawn lately; stale: pictures came, then stopped; none: nothing drawn yet. */
export type PictureState = 'fresh' | 'stale' | 'none';

export interface CameraFacts {
  socket: SocketPresence;
  /** null until the cockpit has said. */
  health: CameraStatus | null;
  /** The cockpit says the robot has no camera at all (its daemon runs without media); null otherwise. */
  absent?: string | null;
  /** The cockpit says why its last attempt to get pictures failed; null when none failed. */
  trouble?: string | null;
  /** False once the cockpit said it has no camera at all. */
  configured: boolean;
  picture: PictureState;
  /** Seconds since the last picture, for a stale one. */
  staleSeconds: number;
}

export interface CameraView {
  tone: Tone;
  /** Short status beside the card title. */
  label: string;
  /** Said over the picture when there is something to explain; null when the picture speaks. */
  notice: string | null;
}

/** A picture older than this counts as stale. */
export const STALE_MS = 2000;

export function pictureState(lastShownAt: number | null, now: number): PictureState {
  if (lastShownAt === null) return 'none';
  return now - lastShownAt <= STALE_MS ? 'fresh' : 'stale';
}

/** The cockpit's lower-case phrase as the start of a sentence. */
function sentence(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

export function describeCamera(f: CameraFacts): CameraView {
  if (!f.configured) return { tone: 'idle', label: 'No camera', notice: 'This cockpit has no camera configured.' };
  if (f.socket !== 'connected') {
    const notice = f.picture === 'none' ? 'Not connected to the cockpit.' : 'Not connected: this is the last picture.';
    return { tone: 'bad', label: 'Not connected', notice };
  }
  if (f.picture === 'fresh') return { tone: 'ok', label: 'Live', notice: null };
  switch (f.health) {
    case 'lost':
      return {
        tone: 'warn',
        label: 'Camera lost',
        notice: f.trouble
          ? `The camera stopped sending pictures (${f.trouble}); the cockpit is getting it back.`
          : 'The camera stopped sending pictures; the cockpit is getting it back.',
      };
    case 'starting':
      return f.trouble
        ? { tone: 'bad', label: 'Not starting', notice: `${sentence(f.trouble)}. Trying again…` }
        : { tone: 'warn', label: 'Starting', notice: 'The camera is starting…' };
    case 'off':
      return f.absent
        ? { tone: 'idle', label: 'No camera', notice: `${sentence(f.absent)}.` }
        : { tone: 'idle', label: 'Camera off', notice: 'The camera is off.' };
    case 'live':
      return f.picture === 'stale'
        ? { tone: 'warn', label: 'Stalled', notice: `No new picture for ${Math.round(f.staleSeconds)} s.` }
        : { tone: 'idle', label: 'Waiting', notice: 'Waiting for the first picture…' };
    default:
      return { tone: 'idle', label: 'Waiting', notice: 'Waiting for the camera…' };
  }
}

/**
 * The socket path has failed when the cockpit says the camera is live but no picture has come
 * over the socket for `graceMs` since it was asked for (or since the last one): then the view
 * switches to the MJPEG stream.
 */
export function socketPathFailed(input: {
  askedAt: number | null;
  lastFrameAt: number | null;
  health: CameraStatus | null;
  now: number;
  graceMs?: number;
}): boolean {
  if (input.askedAt === null || input.health !== 'live') return false;
  const evidence = Math.max(input.askedAt, input.lastFrameAt ?? 0);
  return input.now - evidence > (input.graceMs ?? 4000);
}
