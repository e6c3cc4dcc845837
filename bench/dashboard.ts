/**
 * The dashboard's weight and speed, in the system Chromium: initial JavaScript gzipped (what
 * index.html names, and everything the page had fetched by the time the first live state showed),
 * the time from navigation to that first live state, and a trace while it streams
 * (dashboard-trace.ts: frames per second, long tasks).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { traceDashboard, type TraceResult } from './dashboard-trace.ts';
import { BENCH_TOKEN, ROOT, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

export interface DashboardResult {
  /** The scripts index.html names (entry and modulepreloads). */
  initialJsGzipKb: number;
  /** Every script the page had fetched when the first live state showed (the median run). */
  jsBeforeLiveGzipKb: number;
  firstLiveStateMsMedian: number;
  firstLiveStateMsMax: number;
  runs: number;
  trace: TraceResult;
}

const DIST = join(ROOT, 'dist', 'renderer');

function gzipKb(paths: readonly string[]): number {
  const bytes = paths
    .map((p) => join(DIST, p.replace(/^\//, '')))
    .filter((file) => existsSync(file))
    .reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0);
  return Math.round(bytes / 102.4) / 10;
}

export function initialJsGzipKb(): number {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  return gzipKb([...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1] as string));
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function measureDashboard(stack: Stack, runs = 5, traceSeconds = 10): Promise<DashboardResult> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const dashboardUrl = `${stack.url.replace('127.0.0.1', 'localhost')}/?token=${BENCH_TOKEN}`;
  const loads: { ms: number; jsKb: number }[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      const t0 = performance.now();
      await page.goto(dashboardUrl);
      await page.getByLabel('Head yaw', { exact: true }).filter({ hasText: '°' }).waitFor({ timeout: 15_000 });
      loads.push({ ms: performance.now() - t0, jsKb: gzipKb([...scripts]) });
      await context.close();
    }
    const trace = await traceDashboard(browser, dashboardUrl, traceSeconds);
    const times = loads.map((l) => l.ms);
    const median = percentile(times, 50);
    return {
      initialJsGzipKb: initialJsGzipKb(),
      jsBeforeLiveGzipKb: loads.find((l) => l.ms === median)?.jsKb ?? NaN,
      firstLiveStateMsMedian: median,
      firstLiveStateMsMax: Math.max(...times),
      runs,
      trace,
    };
  } finally {
    await browser.close();
  }
}
