/**
 * Glass to glass in Chromium: the simulator draws its clock as a frame counter strip into each
 * picture; a page reads it back from every displayed video frame. Measured straight from the
 * simulator (the best any viewer can do) and through the cockpit's relay, in two pages at the
 * same time, so both see the same load on the machine; the difference is what the cockpit adds.
 * One after the other, the two had run minutes apart, and the direct path's p50 alone moved
 * between 26 and 78 ms from one run to the next, more than the figure being measured.
 */
import { chromium } from '@playwright/test';
import { COUNTER_BITS, COUNTER_CELL } from '../server/sim/camera-scene.ts';
import { GLASS_TO_GLASS_SCRIPT } from './glass-page.ts';
import { BENCH_TOKEN, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

/** Not counted after a page's first frame (glass-page.ts). */
const WARMUP_SECONDS = 3;

export interface GlassResult {
  seconds: number;
  direct: { frames: number; p50: number; p99: number };
  relay: { frames: number; p50: number; p99: number };
  /** Relay p50 minus direct p50, ms. */
  addedP50: number;
}

export async function measureGlassToGlass(stack: Stack, seconds: number): Promise<GlassResult> {
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
    const [direct, relay] = await Promise.all([run('direct'), run('relay')]);
    const summary = (s: number[]) => ({ frames: s.length, p50: percentile(s, 50), p99: percentile(s, 99) });
    return { seconds, direct: summary(direct), relay: summary(relay), addedP50: percentile(relay, 50) - percentile(direct, 50) };
  } finally {
    await browser.close();
  }
}
