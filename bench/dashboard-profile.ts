/**
 * Where the dashboard's main thread spends its time while it streams: `npx tsx
 * bench/dashboard-profile.ts [seconds]` starts the simulated robot and a cockpit, opens the
 * dashboard in the system Chromium (build it first: `npm run build:renderer`), waits for the live
 * state, the camera and the plots, then records for `seconds` (10): Chromium's own counters
 * (script, layout, style, task time) and a sampling JS profile, printed as the functions with the
 * most self time; then a Chromium trace for as long, listing each main-thread task over 50 ms
 * with what took its time. What to look at when the dashboard section of RESULTS.md misses its budget.
 */
import { chromium } from '@playwright/test';
import { BENCH_TOKEN, startStack } from './processes.ts';
import { sleep } from './proc-stats.ts';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; type?: string } };
}

/** Main-thread tasks over 50 ms, each with the events inside it that took the most time. */
function longTasks(events: TraceEvent[]): string[] {
  const main = events.find(
    (e) => e.name === 'thread_name' && (e.args as { name?: string } | undefined)?.name === 'CrRendererMain',
  );
  const onMain = events.filter(
    (e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined,
  );
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000);
  return tasks.map((task) => {
    const inside = onMain
      .filter(
        (e) =>
          e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0) && e.name !== 'RunTask',
      )
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 4)
      .map(
        (e) =>
          `${e.name}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''}${e.args?.data?.type ? ` ${e.args.data.type}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)} ms`,
      );
    return `${((task.dur ?? 0) / 1000).toFixed(1)} ms: ${inside.join(', ') || 'nothing traced inside'}`;
  });
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const seconds = Number(process.argv[2] ?? 10);
const COUNTERS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'];

async function main(): Promise<void> {
  const stack = await startStack({ ROBOT_RATE_LIMIT: '1000' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${stack.url.replace('127.0.0.1', 'localhost')}/?token=${BENCH_TOKEN}`);
    await page.getByLabel('Head yaw', { exact: true }).filter({ hasText: '°' }).waitFor({ timeout: 30_000 });
    // Five plots drawn; a build without them (to weigh their cost) goes on after the bound.
    await page
      .locator('[data-drawn="true"]')
      .nth(4)
      .waitFor({ timeout: 30_000 })
      .catch(() => process.stdout.write('(the five plots did not draw: measuring without them)\n'));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const counters = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return new Map(metrics.map((m) => [m.name, m.value]));
    };
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const before = await counters();
    await cdp.send('Profiler.start');
    await sleep(seconds * 1000);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
    };
    const after = await counters();
    const line = (name: string) =>
      `${name}: ${((((after.get(name) ?? 0) - (before.get(name) ?? 0)) * 1000) / seconds).toFixed(1)} ms per second`;
    process.stdout.write(
      `Main thread over ${seconds} s:\n${COUNTERS.map(line).join('\n')}\n\nMost self time (JS samples):\n`,
    );
    const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
    const byFrame = new Map<string, number>();
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/assets\//, '')}:${lineNumber + 1}`;
      byFrame.set(key, (byFrame.get(key) ?? 0) + (node.hitCount ?? 0) * msPerSample);
    }
    const top = [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, 25);
    for (const [key, ms] of top) process.stdout.write(`${(ms / seconds).toFixed(2).padStart(8)} ms/s  ${key}\n`);

    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await sleep(seconds * 1000);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const long = longTasks(trace.traceEvents);
    process.stdout.write(
      `\nMain-thread tasks over 50 ms in a ${seconds} s trace: ${long.length}\n${long.join('\n')}\n`,
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`profile failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
