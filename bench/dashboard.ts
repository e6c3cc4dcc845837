/**
 * The dashboard's weight and speed: initial JavaScript gzipped (what index.html loads before
 * anything lazy), and the time from navigation to the first live state shown, in the system
 * Chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { BENCH_TOKEN, ROOT, type Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

export interface DashboardResult {
  initialJsGzipKb: number;
  firstLiveStateMsMedian: number;
  firstLiveStateMsMax: number;
  runs: number;
}

export function initialJsGzipKb(): number {
  const dist = join(ROOT, 'dist', 'renderer');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => m[1] as string);
  const bytes = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(dist, src.replace(/^\//, '')))).length, 0);
  return Math.round(bytes / 102.4) / 10;
}

export async function measureDashboard(stack: Stack, runs = 5): Promise<DashboardResult> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${stack.url.replace('127.0.0.1', 'localhost')}/?token=${BENCH_TOKEN}`);
      await page.getByLabel('Head yaw', { exact: true }).filter({ hasText: '°' }).waitFor({ timeout: 15_000 });
      times.push(performance.now() - t0);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return {
    initialJsGzipKb: initialJsGzipKb(),
    firstLiveStateMsMedian: percentile(times, 50),
    firstLiveStateMsMax: Math.max(...times),
    runs,
  };
}
