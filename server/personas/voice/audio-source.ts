/**
 * Where the voice listener's microphone audio comes from. Every source delivers the same
 * thing, PCM16 little-endian mono at 16 kHz (what speech-to-text services expect), so the
 * detector and the WAV writer never convert. Implementations: a local capture device or a
 * file/stream, both through ffmpeg (ffmpeg-audio-source.ts).
 */

export const SAMPLE_RATE = 16_000;
/** Bytes per second of PCM16 mono at SAMPLE_RATE. */
export const BYTES_PER_SECOND = SAMPLE_RATE * 2;

export interface AudioHandlers {
  /** A chunk of PCM16 LE mono 16 kHz; any length (an odd byte continues in the next chunk). */
  pcm(chunk: Buffer): void;
  /**
   * The source ended by itself: `error` says why when it failed (a device that cannot be
   * opened, ffmpeg gone); null when a file or stream simply ran out.
   */
  end(error: string | null): void;
}

export interface AudioSource {
  /** For the status line, e.g. `microphone default (alsa)`. */
  readonly name: string;
  start(handlers: AudioHandlers): void;
  /** Stops at once; no handler is called afterwards. */
  stop(): void;
}
