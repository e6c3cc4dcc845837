/** Frames per second over a sliding window, from arrival times. */
export class RateMeter {
  private readonly times: number[] = [];

  constructor(private readonly windowMs = 2000) {}

  tick(now: number): void {
    this.times.push(now);
    this.trim(now);
  }

  hz(now: number): number {
    this.trim(now);
    if (this.times.length < 2) return 0;
    // Intervals over the span they cover, so a window that is still filling reads true.
    const span = (this.times[this.times.length - 1] as number) - (this.times[0] as number);
    return span > 0 ? Math.round(((this.times.length - 1) * 1000 * 10) / span) / 10 : 0;
  }

  reset(): void {
    this.times.length = 0;
  }

  private trim(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] as number) < cutoff) drop += 1;
    if (drop > 0) this.times.splice(0, drop);
  }
}
