/**
 * One recording being replayed: the cursor, play and pause at 1× or 4×, and the camera frame at
 * the cursor, fetched one at a time (the newest wanted frame wins; a frame already shown is not
 * fetched again). Time for playback comes from the page's clock (`Date.now`), so a test can
 * drive it.
 */
import type { ReplaySummary } from '../../../../server/contract/recordings.ts';
import type { RecordingsApi } from './recordings-api.ts';
import { advance, frameAt } from './replay-cursor.ts';

export const SPEEDS = [1, 4] as const;
export type Speed = (typeof SPEEDS)[number];

export class ReplayPlayer {
  cursor = $state(0);
  playing = $state(false);
  speed = $state<Speed>(1);
  frameUrl = $state<string | null>(null);
  /** The offset of the frame on screen. */
  frameT = $state<number | null>(null);
  readonly summary: ReplaySummary;
  readonly #api: RecordingsApi;
  #lastTick = 0;
  #loading = false;
  #wanted: number | null = null;

  constructor(summary: ReplaySummary, api: RecordingsApi) {
    this.summary = summary;
    this.#api = api;
  }

  seek(t: number): void {
    this.cursor = Math.min(this.summary.duration, Math.max(0, t));
    void this.showFrame();
  }

  play(): void {
    if (this.cursor >= this.summary.duration) this.cursor = 0;
    this.playing = true;
    this.#lastTick = Date.now();
  }

  pause(): void {
    this.playing = false;
  }

  /** Called by the view on a timer while playing. */
  tick(): void {
    if (!this.playing) return;
    const now = Date.now();
    this.cursor = advance(this.cursor, now - this.#lastTick, this.speed, this.summary.duration);
    this.#lastTick = now;
    if (this.cursor >= this.summary.duration) this.playing = false;
    void this.showFrame();
  }

  async showFrame(): Promise<void> {
    const target = frameAt(this.summary.frames, this.cursor);
    if (target === null || target === this.frameT) return;
    this.#wanted = target;
    if (this.#loading) return;
    this.#loading = true;
    while (this.#wanted !== null && this.#wanted !== this.frameT) {
      const t = this.#wanted;
      const result = await this.#api.frame(this.summary.id, t);
      if (result.ok) {
        if (this.frameUrl) URL.revokeObjectURL(this.frameUrl);
        this.frameUrl = URL.createObjectURL(result.data);
      }
      this.frameT = t;
    }
    this.#loading = false;
  }

  close(): void {
    this.playing = false;
    if (this.frameUrl) URL.revokeObjectURL(this.frameUrl);
    this.frameUrl = null;
  }
}
