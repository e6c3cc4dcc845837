/**
 * The simulated robot's microphone: what the room sounds like at the robot, as PCM16 LE mono
 * 48 kHz in 20 ms frames (the rate webrtcsink's Opus encoder takes). A quiet room (soft noise
 * around −60 dBFS, so a speech detector has a floor to learn) plus whatever the robot has been
 * made to hear (/sim/microphone), played out once in real time. The clock runs only while a
 * camera session with audio listens, as the daemon's pipeline feeds only the encoders it has.
 */

export const MIC_RATE = 48_000;
/** Samples in one 20 ms frame. */
export const MIC_FRAME = 960;
const FRAME_MS = 20;
/** Room noise amplitude (full scale 1): about −60 dBFS. */
const ROOM_NOISE = 0.001;
/** After a stall (a busy machine), at most this many frames are produced at once; older ones are skipped. */
const MAX_CATCH_UP = 10;

export interface MicrophoneStatus {
  /** Audio still to be heard, in ms. */
  queuedMs: number;
  /** Clips heard so far (each /sim/microphone call). */
  clips: number;
  /** Sessions whose encoder reads the microphone now. */
  listeners: number;
  /** The silent fault is on: every sample is zero. */
  silent: boolean;
}

export interface SimMicrophone {
  /** Frames of PCM16 LE mono 48 kHz, 20 ms each, until the returned function is called. */
  subscribe(onFrame: (pcm: Buffer) => void): () => void;
  /** Queues a clip (PCM16 LE mono 48 kHz) for the robot to hear after what is queued already. */
  hear(pcm: Buffer): void;
  /** The fault of a microphone that records only zeros: no room noise, nothing heard. */
  setSilent(on: boolean): void;
  status(): MicrophoneStatus;
  close(): void;
}

export function createSimMicrophone(now: () => number = () => performance.now()): SimMicrophone {
  const listeners = new Set<(pcm: Buffer) => void>();
  const queue: Buffer[] = [];
  let clips = 0;
  let silent = false;
  let timer: NodeJS.Timeout | undefined;
  let startedAt = 0;
  let produced = 0;
  let seed = 12345;

  const noise = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return (seed / 2 ** 32) * 2 - 1;
  };
  const frame = (): Buffer => {
    const out = Buffer.alloc(MIC_FRAME * 2);
    if (silent) return out;
    const head = queue[0];
    const speech = head ? Math.min(MIC_FRAME, head.length / 2) : 0;
    for (let i = 0; i < MIC_FRAME; i += 1) {
      const said = head && i < speech ? head.readInt16LE(i * 2) : 0;
      const v = Math.round(ROOM_NOISE * 32767 * noise()) + said;
      out.writeInt16LE(Math.max(-32768, Math.min(32767, v)), i * 2);
    }
    if (head) {
      const rest = head.subarray(speech * 2);
      if (rest.length >= 2) queue[0] = rest;
      else queue.shift();
    }
    return out;
  };
  const tick = (): void => {
    const due = Math.floor((now() - startedAt) / FRAME_MS);
    if (due - produced > MAX_CATCH_UP) produced = due - MAX_CATCH_UP;
    for (; produced < due; produced += 1) {
      const pcm = frame();
      for (const listener of listeners) listener(pcm);
    }
  };
  const stopClock = (): void => {
    clearInterval(timer);
    timer = undefined;
  };

  return {
    subscribe(onFrame) {
      listeners.add(onFrame);
      if (!timer) {
        startedAt = now();
        produced = 0;
        timer = setInterval(tick, FRAME_MS / 2);
      }
      return () => {
        listeners.delete(onFrame);
        if (listeners.size === 0) stopClock();
      };
    },
    hear(pcm) {
      if (silent) return;
      const whole = pcm.subarray(0, pcm.length - (pcm.length % 2));
      if (whole.length === 0) return;
      queue.push(whole);
      clips += 1;
    },
    setSilent(on) {
      silent = on;
      // What was queued is lost, as a dead capture device loses it.
      if (on) queue.length = 0;
    },
    status: () => ({
      queuedMs: Math.round((queue.reduce((sum, b) => sum + b.length, 0) / 2 / MIC_RATE) * 1000),
      clips,
      listeners: listeners.size,
      silent,
    }),
    close() {
      listeners.clear();
      queue.length = 0;
      stopClock();
    },
  };
}
