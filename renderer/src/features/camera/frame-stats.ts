/**
 * Counts what the camera view draws: pictures per second over a sliding window, and the median
 * delay from a picture's arrival at the cockpit to its drawing here (a median, so one slow
 * decode does not make the readout jump).
 */

export interface FrameStatsOptions {
  windowMs?: number;
  latencySamples?: number;
}

export class FrameStats {
  readonly #windowMs: number;
  readonly #latencySamples: number;
  #shown: number[] = [];
  #latencies: number[] = [];

  constructor(options: FrameStatsOptions = {}) {
    this.#windowMs = options.windowMs ?? 2000;
    this.#latencySamples = options.latencySamples ?? 30;
  }

  /** One picture drawn at `shownAt` that reached the cockpit at `capturedAt` (both epoch ms). */
  record(shownAt: number, capturedAt: number): void {
    this.#shown.push(shownAt);
    this.#trim(shownAt);
    this.#latencies.push(Math.max(0, shownAt - capturedAt));
    if (this.#latencies.length > this.#latencySamples) this.#latencies.shift();
  }

  /** Pictures per second over the window ending at `now`. */
  fps(now: number): number {
    this.#trim(now);
    if (this.#shown.length < 2) return 0;
    const span = Math.max(now - (this.#shown[0] as number), 1);
    // Over a short history the span, not the whole window, is what was measured.
    return (this.#shown.length - 1) / (Math.min(span, this.#windowMs) / 1000);
  }

  latencyMs(): number | null {
    if (this.#latencies.length === 0) return null;
    const sorted = [...this.#latencies].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  }

  reset(): void {
    this.#shown = [];
    this.#latencies = [];
  }

  #trim(now: number): void {
    while (this.#shown.length > 0 && (this.#shown[0] as number) < now - this.#windowMs) this.#shown.shift();
  }
}
