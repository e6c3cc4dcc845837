/**
 * The robot's microphone as it comes with the camera's WebRTC session: Opus packets in, PCM16
 * mono 16 kHz out to every listener (one decoder however many listen). The tap also says
 * whether the microphone is wanted, which decides how the camera session answers the audio
 * m-line: `recvonly` while someone listens, `inactive` otherwise, so the robot runs no Opus
 * encoder for nobody (docs/daemon.md, "Duties of the cockpit"). Turning it off waits a little, so a listener that
 * restarts at once does not make the camera renegotiate twice.
 */
import type { Log } from '../../log.ts';
import { startOpusDecoder, type OpusDecoder } from './opus-decoder.ts';

export interface MicrophoneListener {
  /** PCM16 LE mono 16 kHz, any length (an odd byte continues in the next chunk). */
  pcm(chunk: Buffer): void;
  /** The microphone is gone for good (the camera stopped); no call comes after this. */
  end(reason: string): void;
}

export interface MicrophoneSubscription {
  close(): void;
}

/** A camera source's microphone (only the daemon's WebRTC source has one). */
export interface CameraMicrophone {
  /** For status lines, e.g. `daemon microphone (webrtc ws://127.0.0.1:8443)`. */
  readonly name: string;
  listen(listener: MicrophoneListener): MicrophoneSubscription;
}

export interface MicrophoneTap extends CameraMicrophone {
  readonly wanted: boolean;
  /** One Opus packet from the session, in order (opus-rtp-receiver.ts). */
  opus(packet: Buffer, samples: number): void;
}

export interface TapOptions {
  name: string;
  log: Log;
  /** The wish changed: renegotiate the session's audio. */
  onWant(on: boolean): void;
  /** After the last listener leaves, audio stays wanted this long (default 3 s). */
  offLingerMs?: number;
  ffmpegBinary?: string;
}

/**
 * After a decoder ended by itself, this much audio (48 kHz samples: one second) is dropped before
 * the next one starts. A decoder that cannot run (ffmpeg missing, or without libopus) would
 * otherwise be spawned again, and its end logged, for every 20 ms packet while anyone listens.
 */
const RETRY_AFTER_SAMPLES = 48_000;

export function createMicrophoneTap(options: TapOptions): MicrophoneTap {
  const listeners = new Set<MicrophoneListener>();
  let decoder: OpusDecoder | undefined;
  /** Audio still to drop before the next decoder starts. */
  let retryIn = 0;
  let wanted = false;
  let offTimer: NodeJS.Timeout | undefined;

  const setWanted = (on: boolean): void => {
    clearTimeout(offTimer);
    if (on === wanted) return;
    wanted = on;
    options.onWant(on);
  };
  const stopDecoder = (): void => {
    decoder?.close();
    decoder = undefined;
  };
  const startDecoder = (): OpusDecoder => {
    const started = startOpusDecoder({
      log: options.log,
      onPcm: (chunk) => {
        for (const listener of listeners) listener.pcm(chunk);
      },
      // A fresh decoder starts after a second of audio; the listeners miss what was in flight and that second.
      onExit: (reason) => {
        options.log.warn('microphone decoder ended; starting another', { reason });
        if (decoder !== started) return;
        decoder = undefined;
        retryIn = RETRY_AFTER_SAMPLES;
      },
      ...(options.ffmpegBinary ? { ffmpegBinary: options.ffmpegBinary } : {}),
    });
    return started;
  };
  const leave = (listener: MicrophoneListener): void => {
    if (!listeners.delete(listener) || listeners.size > 0) return;
    stopDecoder();
    offTimer = setTimeout(() => setWanted(false), options.offLingerMs ?? 3000);
    offTimer.unref();
  };

  return {
    name: options.name,
    get wanted() {
      return wanted;
    },
    listen(listener) {
      listeners.add(listener);
      setWanted(true);
      return { close: () => leave(listener) };
    },
    opus(packet, samples) {
      if (listeners.size === 0) return;
      if (!decoder && retryIn > 0) {
        retryIn -= samples;
        return;
      }
      decoder ??= startDecoder();
      decoder.write(packet, samples);
    },
  };
}
