/**
 * Energy-based voice activity detection with hangover: cuts a microphone stream into
 * utterances. A 20 ms frame is voiced when its level stands `marginDb` above the noise floor
 * (and above an absolute minimum); an utterance opens after `startFrames` voiced frames in a
 * row (one click is not speech), keeps `preRollMs` of audio from before it (the soft start of
 * a word), survives pauses shorter than `hangoverMs` (between words), and is dropped when its
 * speech is shorter than `minSpeechMs`. The floor follows quiet frames quickly and loud ones
 * very slowly, so a steady noise (a fan starting up) stops counting as speech after some
 * seconds, while a sentence, whose pauses pull the floor back down, does not. Time is counted in samples, so a file read faster than real time cuts
 * exactly like a live microphone.
 */
import { levelDb } from './pcm-level.ts';

export interface VadOptions {
  sampleRate: number;
  frameMs: number;
  marginDb: number;
  /** Nothing quieter than this is voiced, however quiet the room. */
  minDb: number;
  startFrames: number;
  hangoverMs: number;
  preRollMs: number;
  minSpeechMs: number;
  /** A longer utterance is cut here and a new one may begin. */
  maxUtteranceMs: number;
}

export const DEFAULT_VAD: Readonly<Omit<VadOptions, 'sampleRate'>> = Object.freeze({
  frameMs: 20,
  marginDb: 12,
  minDb: -50,
  startFrames: 3,
  hangoverMs: 700,
  preRollMs: 200,
  minSpeechMs: 300,
  maxUtteranceMs: 15_000,
});

export interface Utterance {
  /** PCM16 LE mono at the detector's sample rate. */
  pcm: Buffer;
  /** Stream time of the first and last sample, ms from the first pushed sample. */
  startMs: number;
  endMs: number;
  /** Milliseconds from the first to the last voiced frame. */
  speechMs: number;
}

export interface Vad {
  push(chunk: Buffer): void;
  /** End of stream: an open utterance is closed (and emitted when long enough). */
  flush(): void;
  /** Forgets everything pending (muted, paused): nothing half-heard is emitted later. */
  reset(): void;
  /** Whether an utterance is open now. */
  speaking(): boolean;
  /** The level of the newest frame, dBFS. */
  level(): number;
}

const FLOOR_START_DB = -70;
const FLOOR_QUIET_RATE = 0.05;
const FLOOR_LOUD_RATE = 0.002;
/** Trailing silence kept after the last voiced frame, so the last word is not clipped. */
const TAIL_MS = 200;

export function createVad(options: VadOptions, onUtterance: (u: Utterance) => void): Vad {
  const frameBytes = Math.round((options.sampleRate * options.frameMs) / 1000) * 2;
  const hangFrames = Math.ceil(options.hangoverMs / options.frameMs);
  const tailFrames = Math.ceil(TAIL_MS / options.frameMs);
  const preFrames = Math.ceil(options.preRollMs / options.frameMs) + options.startFrames;
  const maxFrames = Math.floor(options.maxUtteranceMs / options.frameMs);
  let carry = Buffer.alloc(0);
  let frameNo = 0;
  let floor = FLOOR_START_DB;
  let last = FLOOR_START_DB;
  let ring: Buffer[] = [];
  let run = 0;
  let open: { frames: Buffer[]; first: number; firstVoiced: number; lastVoiced: number } | undefined;

  const close = () => {
    const u = open;
    open = undefined;
    run = 0;
    if (!u) return;
    const speechMs = (u.lastVoiced - u.firstVoiced + 1) * options.frameMs;
    if (speechMs < options.minSpeechMs) return;
    const keep = Math.min(u.frames.length, u.lastVoiced - u.first + 1 + tailFrames);
    onUtterance({
      pcm: Buffer.concat(u.frames.slice(0, keep)),
      startMs: u.first * options.frameMs,
      endMs: (u.first + keep) * options.frameMs,
      speechMs,
    });
  };

  const frame = (pcm: Buffer) => {
    const no = frameNo++;
    last = levelDb(pcm);
    const voiced = last >= Math.max(options.minDb, floor + options.marginDb);
    floor += (last - floor) * (voiced ? FLOOR_LOUD_RATE : last < floor ? 0.5 : FLOOR_QUIET_RATE);
    if (open) {
      open.frames.push(pcm);
      if (voiced) open.lastVoiced = no;
      if (no - open.lastVoiced >= hangFrames || open.frames.length >= maxFrames) close();
      return;
    }
    ring.push(pcm);
    if (ring.length > preFrames) ring.shift();
    run = voiced ? run + 1 : 0;
    if (run >= options.startFrames) {
      open = { frames: ring, first: no - ring.length + 1, firstVoiced: no - run + 1, lastVoiced: no };
      ring = [];
    }
  };

  return {
    push(chunk) {
      let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      while (data.length >= frameBytes) {
        // A copy: the caller may reuse its buffer, and an utterance keeps frames for seconds.
        frame(Buffer.from(data.subarray(0, frameBytes)));
        data = data.subarray(frameBytes);
      }
      carry = Buffer.from(data);
    },
    flush() {
      if (carry.length >= 2 && open) open.frames.push(carry.subarray(0, carry.length - (carry.length % 2)));
      carry = Buffer.alloc(0);
      close();
    },
    reset() {
      carry = Buffer.alloc(0);
      ring = [];
      run = 0;
      open = undefined;
    },
    speaking: () => open !== undefined,
    level: () => last,
  };
}
