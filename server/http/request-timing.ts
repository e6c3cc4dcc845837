/**
 * `Server-Timing: cockpit;dur=<ms>` on every response that reached the daemon: the time from
 * receiving the request to sending the daemon request. Benchmarks read it; an operator sees it
 * in the browser's network panel.
 */
import type { Middleware } from 'koa';
import { withSendMarks, type SendMarks } from '../daemon/send-marks.ts';

export function requestTiming(): Middleware {
  return async function timeRequest(ctx, next) {
    const marks: SendMarks = { receivedAt: process.hrtime.bigint() };
    await withSendMarks(marks, next);
    if (marks.daemonSentAt !== undefined && !ctx.headerSent) {
      const ms = Number(marks.daemonSentAt - marks.receivedAt) / 1e6;
      ctx.append('Server-Timing', `cockpit;dur=${ms.toFixed(3)};desc="receive to daemon send"`);
    }
  };
}
