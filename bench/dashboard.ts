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
  /** Every script fetched once the page had settled (the cards loaded on demand included). */
  jsSettledGzipKb: number;
  firstLiveStateMsMedian: number;
  /** Where the median run's time went: milestones in ms from navigation start (the page's clock). */
  waterfall: {
    domContentLoaded: number;
    health: number;
    appChunk: number;
    socketCreated: number;
    socketOpen: number;
    firstMessage: number;
  };
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

/** Installed before any page script: when the dashboard's socket is created, opens and first hears. */
const WATCH_SOCKET = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__benchSocketCreated ??= performance.now();
      this.addEventListener('open', () => (window.__benchSocketOpen ??= performance.now()));
      this.addEventListener('message', () => (window.__benchFirstMessage ??= performance.now()));
    }
  };
})()`;

/**
 * Milestones of the load, in ms from navigation start (the page's clock): the document, the
 * robot-kind question (/api/health), the desktop dashboard chunk and the state socket.
 */
const MILESTONES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const end = (test) => { const e = res.find((r) => test(r.name)); return e ? e.responseEnd : -1; };
  return {
    domContentLoaded: nav ? nav.domContentLoadedEventEnd : -1,
    health: end((n) => n.endsWith('/api/health')),
    appChunk: end((n) => n.includes('/assets/App-') && n.endsWith('.js')),
    socketCreated: window.__benchSocketCreated ?? -1,
    socketOpen: window.__benchSocketOpen ?? -1,
    firstMessage: window.__benchFirstMessage ?? -1,
  };
})()`;

type Waterfall = DashboardResult['waterfall'];

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function measureDashboard(stack: Stack, runs = 5, traceSeconds = 10): Promise<DashboardResult> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const dashboardUrl = `${stack.url.replace('127.0.0.1', 'localhost')}/?token=${BENCH_TOKEN}`;
  const loads: { ms: number; jsKb: number; settledKb: number; waterfall: Waterfall }[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const context = await browser.newContext();
      await context.addInitScript(WATCH_SOCKET);
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      const t0 = performance.now();
      await page.goto(dashboardUrl);
      await page.getByLabel('Head yaw', { exact: true }).filter({ hasText: '°' }).waitFor({ timeout: 15_000 });
      const ms = performance.now() - t0;
      const jsKb = gzipKb([...scripts]);
      const waterfall = (await page.evaluate(MILESTONES)) as Waterfall;
      await page.waitForLoadState('networkidle');
      loads.push({ ms, jsKb, settledKb: gzipKb([...scripts]), waterfall });
      await context.close();
    }
    const trace = await traceDashboard(browser, dashboardUrl, traceSeconds);
    const times = loads.map((l) => l.ms);
    const median = percentile(times, 50);
    const medianRun = loads.find((l) => l.ms === median);
    return {
      initialJsGzipKb: initialJsGzipKb(),
      jsBeforeLiveGzipKb: medianRun?.jsKb ?? NaN,
      jsSettledGzipKb: medianRun?.settledKb ?? NaN,
      firstLiveStateMsMedian: median,
      waterfall: medianRun?.waterfall ?? {
        domContentLoaded: NaN,
        health: NaN,
        appChunk: NaN,
        socketCreated: NaN,
        socketOpen: NaN,
        firstMessage: NaN,
      },
      firstLiveStateMsMax: Math.max(...times),
      runs,
      trace,
    };
  } finally {
    await browser.close();
  }
}
