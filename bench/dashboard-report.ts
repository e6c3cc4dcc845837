/** The dashboard's part of bench/RESULTS.md: weight, first live state, the streaming trace, the budget. */
import { loadavg } from 'node:os';
import type { DashboardResult } from './dashboard.ts';

/** The section's first line; `BENCH_ONLY=dashboard` replaces RESULTS.md from here to the next section. */
export const DASHBOARD_HEADING = '## Dashboard';

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pass = (ok: boolean) => (ok ? 'met' : '**missed**');

export function renderDashboardSection(d: DashboardResult): string {
  const t = d.trace;
  const w = d.waterfall;
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  return [
    DASHBOARD_HEADING,
    '',
    `Headless system Chromium, 1280×800, against the simulated robot; load average when the section was written: ${load}.`,
    '',
    `Initial JavaScript, gzipped: ${f(d.initialJsGzipKb)} KB named by index.html; ${f(d.jsBeforeLiveGzipKb)} KB fetched by the time the first live state showed; ${f(d.jsSettledGzipKb)} KB once the page had settled (every card loaded on demand included).`,
    `Navigation to first live state: median ${f(d.firstLiveStateMsMedian, 0)} ms, max ${f(d.firstLiveStateMsMax, 0)} ms over ${d.runs} runs. The median run, in ms from navigation start: document ready ${f(w.domContentLoaded, 0)}, /api/health answered ${f(w.health, 0)}, dashboard chunk loaded ${f(w.appChunk, 0)}, state socket created ${f(w.socketCreated, 0)}, open ${f(w.socketOpen, 0)}, first frame ${f(w.firstMessage, 0)}.`,
    '',
    `Streaming for ${t.seconds} s (state at 15 Hz, camera over ${t.camera || 'no path: no picture showed'}, ${t.plotsDrawn} live plots drawn): ${f(t.framesPerSecond)} frames per second, ${t.slowFrames} frames over 25 ms, p99 frame ${f(t.frameP99Ms)} ms; ${t.longTasks} long tasks (longest ${f(t.longestTaskMs, 0)} ms). While loading: ${t.loadLongTasks} long tasks (longest ${f(t.loadLongestTaskMs, 0)} ms).`,
    '',
    '| Target | Figure | |',
    '|---|---|---|',
    `| initial JS ≤ 150 KB gzipped (fetched before the first live state) | ${f(d.jsBeforeLiveGzipKb)} KB | ${pass(d.jsBeforeLiveGzipKb <= 150)} |`,
    `| first live state < 1 s | ${f(d.firstLiveStateMsMedian, 0)} ms (median) | ${pass(d.firstLiveStateMsMedian < 1000)} |`,
    `| 60 fps while streaming | ${f(t.framesPerSecond)} fps | ${pass(t.framesPerSecond >= 59)} |`,
    `| no long task over 50 ms in ${t.seconds} s | ${t.longTasks} (longest ${f(t.longestTaskMs, 0)} ms) | ${pass(t.longTasks === 0)} |`,
    '',
  ].join('\n');
}
