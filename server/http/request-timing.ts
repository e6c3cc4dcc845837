/**
 * `Server-Timing: cockpit;dur=<ms>` on every control response that reached the daemon: the time
 * from receiving the request to sending the daemon request. Benchmarks read it; an operator sees
 * it in the browser's network panel. The time from receiving it to the daemon's first answer goes
 * to `onControlLatency` (the health history's control latency). Reads (GET, HEAD) are served from
 * the state cache and carry no marks, so they skip the async context altogether (send-marks.ts
 * says why that matters).
 */
import type { Middleware } from 'koa';
import { withSendMarks, type SendMarks } from '../daemon/send-marks.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requestTiming(onControlLatency?: (ms: number) => void): Middleware {
  return async function timeRequest(ctx, next) {
    if (READS.has(ctx.method)) return next();
    const marks: SendMarks = { receivedAt: process.hrtime.bigint() };
    await withSendMarks(marks, next);
    if (marks.daemonAnsweredAt !== undefined) onControlLatency?.(Number(marks.daemonAnsweredAt - marks.receivedAt) / 1e6);
    if (marks.daemonSentAt !== undefined && !ctx.headerSent) {
      const ms = Number(marks.daemonSentAt - marks.receivedAt) / 1e6;
      ctx.append('Server-Timing', `cockpit;dur=${ms.toFixed(3)};desc="receive to daemon send"`);
    }
  };
}
