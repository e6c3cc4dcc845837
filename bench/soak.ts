/**
 * Soak: 10 minutes (SOAK_MINUTES) of 50 /ws viewers, 5 MJPEG viewers and a steady
 * control load against the cockpit and simulator on loopback. Reports the cockpit's memory,
 * descriptors, CLOSE-WAIT sockets and errors at the start and the end, and exits non-zero when
 * something leaked or failed. Run with `npm run soak`.
 */
import { request } from 'node:http';
import WebSocket from 'ws';
import type { Health } from '../server/contract/health.ts';
import { BENCH_TOKEN, startStack, type Stack } from './processes.ts';
import { sleep, treeRssMb } from './proc-stats.ts';

const minutes = Number(process.env['SOAK_MINUTES'] ?? 10);
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Sample {
  at: string;
  rssMb: number;
  fds: number;
  closeWait: number;
  wsFrames: number;
  mjpegBytes: number;
  controls: number;
  errors: number;
}

const totals = { wsFrames: 0, mjpegBytes: 0, controls: 0, errors: 0, wsClosed: 0 };

function viewers(stack: Stack): { close(): void } {
  const sockets = Array.from({ length: 50 }, () => {
    const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/ws?token=${BENCH_TOKEN}`);
    ws.on('message', () => (totals.wsFrames += 1));
    ws.on('close', () => (totals.wsClosed += 1));
    ws.on('error', () => (totals.errors += 1));
    return ws;
  });
  const streams = Array.from({ length: 5 }, () => {
    const req = request(`${stack.url}/api/stream?token=${BENCH_TOKEN}`, (res) => res.on('data', (c: Buffer) => (totals.mjpegBytes += c.length)));
    req.on('error', () => undefined);
    req.end();
    return req;
  });
  return {
    close() {
      for (const ws of sockets) ws.terminate();
      for (const req of streams) req.destroy();
    },
  };
}

async function controlLoad(stack: Stack, until: number): Promise<void> {
  for (let i = 0; Date.now() < until; i += 1) {
    const res = await fetch(`${stack.url}/api/control/look`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ yaw: (i % 7) * 8 - 24, pitch: (i % 3) * 5 - 5, duration: 0.4 }),
    }).catch(() => undefined);
    if (res?.status === 200) totals.controls += 1;
    else totals.errors += 1;
    await res?.arrayBuffer();
    await sleep(500);
  }
}

async function sample(stack: Stack): Promise<Sample> {
  const health = (await (await fetch(`${stack.url}/api/health`)).json()) as Health;
  return {
    at: new Date().toISOString(),
    rssMb: treeRssMb(stack.cockpit.pid),
    fds: health.pressure.fds,
    closeWait: health.pressure.close_wait,
    ...totals,
  };
}

async function main(): Promise<void> {
  const stack = await startStack({ ROBOT_RATE_LIMIT: '100' });
  const load = viewers(stack);
  try {
    await sleep(5000);
    const first = await sample(stack);
    say(`soak: start ${JSON.stringify(first)}`);
    const end = Date.now() + minutes * 60_000;
    const control = controlLoad(stack, end);
    while (Date.now() < end) {
      await sleep(60_000);
      say(`soak: ${JSON.stringify(await sample(stack))}`);
    }
    await control;
    const last = await sample(stack);
    say(`soak: end ${JSON.stringify(last)}`);
    say(
      `soak: ${minutes} min; rss ${first.rssMb} → ${last.rssMb} MiB; fds ${first.fds} → ${last.fds}; close_wait ${last.closeWait}; ` +
        `${totals.controls} controls, ${totals.wsFrames} ws frames, ${(totals.mjpegBytes / 1048576).toFixed(0)} MiB MJPEG, ${totals.errors} errors, ${totals.wsClosed} sockets closed`,
    );
    const leaked = last.fds > first.fds + 20 || last.closeWait > 0 || totals.errors > 0 || totals.wsClosed > 0;
    process.exitCode = leaked ? 1 : 0;
  } finally {
    load.close();
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`soak failed: ${String(err)}\n`);
  process.exit(1);
});
