/**
 * Slow clients: how much 150 half-sent requests (headers or a body trickling in, never finished)
 * delay everyone else. GET /api/health is timed sequentially with none of them open, then with
 * all 150 open; the figure is the difference at p50 and p99. The target is under 100 ms
 * (docs/security.md, "Slow and half-open clients").
 */
import { connect, type Socket } from 'node:net';
import type { Stack } from './processes.ts';
import { percentile } from './proc-stats.ts';

export interface SlowClientsResult {
  halfOpen: number;
  requests: number;
  quietP50: number;
  quietP99: number;
  loadedP50: number;
  loadedP99: number;
  addedP99: number;
}

async function healthLatencies(url: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

function halfOpen(port: number, index: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: `127.3.${index >> 8}.${(index & 0xff) || 1}` }, () => {
      socket.write(index % 2 ? 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' : 'POST /api/control/look HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"yaw"');
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

export async function measureSlowClients(stack: Stack, requests: number): Promise<SlowClientsResult> {
  const port = Number(new URL(stack.url).port);
  await healthLatencies(stack.url, 50);
  const quiet = await healthLatencies(stack.url, requests);
  const sockets = await Promise.all(Array.from({ length: 150 }, (_, i) => halfOpen(port, i + 1)));
  try {
    const loaded = await healthLatencies(stack.url, requests);
    const result = {
      halfOpen: sockets.filter((s) => !s.destroyed).length,
      requests,
      quietP50: percentile(quiet, 50),
      quietP99: percentile(quiet, 99),
      loadedP50: percentile(loaded, 50),
      loadedP99: percentile(loaded, 99),
    };
    return { ...result, addedP99: result.loadedP99 - result.quietP99 };
  } finally {
    for (const s of sockets) s.destroy();
  }
}
