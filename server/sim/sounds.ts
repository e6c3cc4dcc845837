/**
 * The speaker: built-in assets, uploaded sounds (kept in memory per simulator, reported under
 * the daemon's `<tmpdir>/reachy_mini_sounds/` path), and a log of what played for how long.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavDuration } from './audio-file.ts';

/** Durations of the daemon's bundled assets, read from their WAV headers (docs/daemon.md, "Media"). */
export const BUILTIN_SOUNDS: Readonly<Record<string, number>> = Object.freeze({
  'wake_up.wav': 0.409,
  'go_sleep.wav': 3.6,
  'impatient1.wav': 0.902,
  'confused1.wav': 5.708,
  'dance1.wav': 0.99,
  'count.wav': 0.655,
});

export const ALLOWED_SOUND_EXTENSIONS: readonly string[] = [
  '.aac',
  '.flac',
  '.m4a',
  '.mp3',
  '.oga',
  '.ogg',
  '.opus',
  '.wav',
];
export const MAX_SOUND_UPLOAD_BYTES = 25 * 1024 * 1024;
/** The play log is for tests and /sim/status; a long-running simulator keeps only the tail. */
const MAX_PLAYS_KEPT = 1000;

export interface SoundPlay {
  file: string;
  /** Null when the length cannot be known (a compressed upload). */
  seconds: number | null;
  /** Epoch milliseconds. */
  startedAt: number;
  /** Set by stop_sound while this sound was still playing. */
  stoppedAt?: number;
}

export interface SoundBoard {
  readonly uploadDir: string;
  wobbling: boolean;
  readonly plays: SoundPlay[];
  store(name: string, data: Buffer): string;
  list(): string[];
  remove(name: string): boolean;
  /** Plays a built-in, uploaded or sidecar sound; unknown files are ignored like a failed playbin. */
  play(file: string, nowMs: number, seconds?: number): SoundPlay | null;
  stop(nowMs: number): void;
}

export function createSoundBoard(): SoundBoard {
  const uploadDir = join(tmpdir(), 'reachy_mini_sounds');
  const uploads = new Map<string, Buffer>();
  const plays: SoundPlay[] = [];

  const lookup = (file: string): { name: string; seconds: number | null } | null => {
    const name = file.startsWith(`${uploadDir}/`) ? file.slice(uploadDir.length + 1) : file;
    const upload = uploads.get(name);
    if (upload) return { name, seconds: name.toLowerCase().endsWith('.wav') ? wavDuration(upload) : null };
    const builtin = BUILTIN_SOUNDS[name];
    return builtin === undefined ? null : { name, seconds: builtin };
  };

  return {
    uploadDir,
    wobbling: false,
    plays,
    store(name, data) {
      uploads.set(name, Buffer.from(data));
      return join(uploadDir, name);
    },
    list: () => [...uploads.keys()].sort(),
    remove: (name) => uploads.delete(name),
    play(file, nowMs, seconds) {
      const found = seconds === undefined ? lookup(file) : { name: file, seconds };
      if (!found) return null;
      const entry: SoundPlay = { file: found.name, seconds: found.seconds, startedAt: nowMs };
      plays.push(entry);
      if (plays.length > MAX_PLAYS_KEPT) plays.shift();
      return entry;
    },
    stop(nowMs) {
      for (const p of plays) {
        const ends = p.seconds === null ? Infinity : p.startedAt + p.seconds * 1000;
        if (p.stoppedAt === undefined && ends > nowMs) p.stoppedAt = nowMs;
      }
    },
  };
}
