/**
 * The dashboard while it streams, in the system Chromium: frames per second and long tasks (the
 * browser's PerformanceObserver 'longtask' entries: main-thread tasks over 50 ms) over a window of
 * `seconds`, once the state is live, the camera picture shows and the plots have drawn. The page
 * is observed from its first script (an init script), so long tasks while loading are counted too,
 * separately. Frames are animation frames: their rate is what the page could paint.
 */
import type { Browser, Page } from '@playwright/test';
import { percentile, sleep } from './proc-stats.ts';

export interface TraceResult {
  seconds: number;
  framesPerSecond: number;
  /** Frame intervals longer than 1.5 frames at 60 Hz (25 ms): frames the page missed. */
  slowFrames: number;
  frameP99Ms: number;
  /** Long tasks (over 50 ms) inside the window, and the longest. */
  longTasks: number;
  longestTaskMs: number;
  /** Long tasks from navigation to the start of the window (loading, first render). */
  loadLongTasks: number;
  loadLongestTaskMs: number;
  /** What showed before the window started: the camera path and the plots drawn. */
  camera: string;
  plotsDrawn: number;
}

/** Installed before any page script: long tasks from the first one on. */
const OBSERVE = `(() => {
  const seen = (window.__benchLongTasks = []);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})()`;

/** Counts animation frames for `ms`, then answers their times and the long tasks seen. */
const WINDOW = `(ms) => new Promise((resolve) => {
  const frames = [];
  const start = performance.now();
  const tick = (t) => {
    frames.push(t);
    if (t - start < ms) requestAnimationFrame(tick);
    else resolve({ start, frames, longTasks: window.__benchLongTasks });
  };
  requestAnimationFrame(tick);
})`;

/** The camera view showing a picture: the WebRTC video playing, or a drawn canvas, or the MJPEG image. */
const CAMERA = `(() => {
  const video = document.querySelector('video');
  if (video && video.readyState >= 2 && video.videoWidth > 0) return 'webrtc';
  const img = document.querySelector('img[src*="/api/stream"]');
  if (img && img.naturalWidth > 0) return 'mjpeg';
  return '';
})()`;

/**
 * Polls an expression in the page until it is truthy or the bound passes. page.waitForFunction
 * would compile the expression inside the page, which the dashboard's CSP (no eval) refuses.
 */
async function until(page: Page, expression: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await page.evaluate(expression)) return true;
    await sleep(100);
  }
  return false;
}

interface WindowAnswer {
  start: number;
  frames: number[];
  longTasks: { start: number; duration: number }[];
}

export async function traceDashboard(browser: Browser, dashboardUrl: string, seconds: number): Promise<TraceResult> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(OBSERVE);
    const page = await context.newPage();
    await page.goto(dashboardUrl);
    await page.getByLabel('Head yaw', { exact: true }).filter({ hasText: '°' }).waitFor({ timeout: 15_000 });
    if (!(await until(page, CAMERA, 30_000))) throw new Error('the dashboard showed no camera picture within 30 s');
    // The plots draw once uPlot has loaded and a sample is there (the health history may need
    // its first 5 s sample): all five, or whatever drew within the bound.
    await until(page, `document.querySelectorAll('[data-drawn="true"]').length >= 5`, 15_000);
    const plotsDrawn = Number(await page.evaluate(`document.querySelectorAll('[data-drawn="true"]').length`));
    const camera = String(await page.evaluate(CAMERA));
    const answer = (await page.evaluate(`(${WINDOW})(${seconds * 1000})`)) as WindowAnswer;
    const inWindow = answer.longTasks.filter((t) => t.start >= answer.start);
    const duringLoad = answer.longTasks.filter((t) => t.start < answer.start);
    const gaps = answer.frames.slice(1).map((t, i) => t - (answer.frames[i] as number));
    const span = (answer.frames.at(-1) ?? 0) - (answer.frames[0] ?? 0);
    return {
      seconds,
      framesPerSecond: span > 0 ? ((answer.frames.length - 1) * 1000) / span : 0,
      slowFrames: gaps.filter((g) => g > 25).length,
      frameP99Ms: percentile(gaps, 99),
      longTasks: inWindow.length,
      longestTaskMs: Math.max(0, ...inWindow.map((t) => t.duration)),
      loadLongTasks: duringLoad.length,
      loadLongestTaskMs: Math.max(0, ...duringLoad.map((t) => t.duration)),
      camera,
      plotsDrawn,
    };
  } finally {
    await context.close();
  }
}
