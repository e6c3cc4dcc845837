/**
 * Glass to glass in Chromium: the simulator draws its clock as a frame counter strip into each
 * picture; a page reads it back from every displayed video frame. Measured straight from the
 * simulator (the best any viewer can do) and through the cockpit's relay, in two pages at the
 * same time, so both see the same load on the machine; the difference is what the cockpit adds.
 * One after the other, the two had run minutes apart, and the direct path's p50 alone moved
 * between 26 and 78 ms from one run to the next, more than the figure being measured.
 *
 * Side by side there is still a noise the cockpit does not make: the simulator encodes each
 * session on its own (as the robot's daemon does), and one session's pictures can come 15 to
 * 40 ms later than the other's for its whole life, whichever path it feeds. Chromium's jitter
 * buffer held both paths about 8 ms in such rounds, and the late session also lost pictures (216
 * shown against 228), as an encoder that falls behind does (server/sim/camera-encoder.ts skips
 * a picture while two wait). So the measurement is made in rounds, each with new sessions, and
 * what the cockpit adds is the median of the rounds' differences.
 */
import { chromium } from '@playwright/test';
import { COUNTER_BITS, COUNTER_CELL } from '../server/sim/camera-scene.ts';
import { GLASS_TO_GLASS_SCRIPT } from './glass-page.ts';
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

/** Not counted after a page's first frame (glass-page.ts). */
const WARMUP_SECONDS = 3;

export interface GlassResult {
  /** Counted per page and round. */
  seconds: number;
  rounds: number;
  /** Not counted at the start of each page's video. */
  warmupSeconds: number;
  /** Every round's samples together. */
  direct: { frames: number; p50: number; p99: number };
  relay: { frames: number; p50: number; p99: number };
  /** Each round's relay p50 minus its direct p50, ms. */
  roundDifferences: number[];
  /** The median of `roundDifferences`, ms. */
  addedP50: number;
}

export async function measureGlassToGlass(stack: Stack, seconds: number, rounds: number): Promise<GlassResult> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--allow-loopback-in-peer-connection', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const run = async (mode: 'direct' | 'relay'): Promise<number[]> => {
      const page = await browser.newPage();
      // A page of the origin it talks to: the simulator's, or the cockpit's (its CSP allows same-origin sockets).
      await page.goto(mode === 'direct' ? `${stack.simUrl}/api/daemon/status` : `${stack.url}/api/health`);
      const url = mode === 'direct' ? stack.sim.found['signalling'] : stack.url;
      const options = { mode, url, token: BENCH_TOKEN, warmup: WARMUP_SECONDS, seconds, bits: COUNTER_BITS, cell: COUNTER_CELL };
      const samples = (await page.evaluate(`(${GLASS_TO_GLASS_SCRIPT})(${JSON.stringify(options)})`)) as number[];
      await page.close();
      return samples;
    };
    const direct: number[] = [];
    const relay: number[] = [];
    const roundDifferences: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const [d, r] = await Promise.all([run('direct'), run('relay')]);
      direct.push(...d);
      relay.push(...r);
      roundDifferences.push(percentile(r, 50) - percentile(d, 50));
    }
    const summary = (s: number[]) => ({ frames: s.length, p50: percentile(s, 50), p99: percentile(s, 99) });
    return { seconds, rounds, warmupSeconds: WARMUP_SECONDS, direct: summary(direct), relay: summary(relay), roundDifferences, addedP50: percentile(roundDifferences, 50) };
  } finally {
    await browser.close();
  }
}
