/**
 * The send floor: what the relay's fan-out costs in Node with everything but the per-viewer
 * encryption and socket send taken away (bench/send-floor-sender.ts), placed on the cores as the
 * relay's phase places the cockpit. Its picture latency beside the relay's says how much of the
 * relay's is werift and the relay's own work, and how much any Node relay on this core would
 * spend anyway.
 */
import { fork } from 'node:child_process';
import dgram from 'node:dgram';
import { join } from 'node:path';
import { quantileOf } from '../server/camera/relay/latency-histogram.ts';
import { ROOT } from './processes.ts';
import { withCores, type Placement } from './proc-stats.ts';
import type { FloorReport, FloorStart, FloorThreads } from './send-floor-sender.ts';

export interface FloorResult {
  viewers: number;
  /** Threads that sent (bench/send-floor-sender.ts): 1, or 2 with the viewers split between them. */
  threads: FloorThreads;
  seconds: number;
  cpuPercent: number;
  packetsPerViewerPerSecond: number;
  pictureLatencyP50Ms: number | null;
  pictureLatencyP99Ms: number | null;
  packetLatencyP99Ms: number | null;
}

/**
 * `oneCore` keeps the sender's every thread on core 0, as the relay's one-core run does.
 * `threads: 2` shares the sending with a worker thread, which runs beside the sender's other
 * threads on core 1 (so does this process's receiving, standing in for the viewers).
 * `elsewhere`: processes moved to core 1 meanwhile (the bench's cockpit and simulator, which the
 * relay's phase keeps off core 0 too; left free, one of them took the sender's core for 6 ms).
 */
export async function measureSendFloor(
  viewers: number,
  seconds: number,
  {
    oneCore = false,
    threads = 1,
    elsewhere = [],
  }: { oneCore?: boolean; threads?: FloorThreads; elsewhere?: readonly number[] } = {},
): Promise<FloorResult> {
  const receivers = await Promise.all(
    Array.from({ length: viewers }, async () => {
      const socket = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      const counted = { socket, packets: 0 };
      socket.on('message', () => (counted.packets += 1));
      return counted;
    }),
  );
  // Plain node with tsx's loader in-process: the pid placed is the one whose thread runs the loop.
  const sender = fork(join(ROOT, 'bench', 'send-floor-sender.ts'), [String(threads)], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  // The sender's next message, or its end as an error (a crash must fail the bench, not hang it).
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const exited = (code: number | null): void => reject(new Error(`the send floor's sender exited with ${code}`));
      sender.once('exit', exited);
      sender.once('message', (m) => {
        sender.off('exit', exited);
        resolve(m as T);
      });
    });
  try {
    await next<'ready'>();
    const pid = sender.pid as number;
    return await withCores(
      [
        [pid, '0', oneCore ? '0' : '1'],
        [process.pid, '1'],
        ...elsewhere.map((other): Placement => [other, '1']),
      ],
      async () => {
        const reported = next<FloorReport>();
        const start: FloorStart = { ports: receivers.map((r) => r.socket.address().port), seconds };
        sender.send(start);
        const report = await reported;
        const received = receivers.reduce((sum, r) => sum + r.packets, 0);
        return {
          viewers,
          threads,
          seconds: report.seconds,
          cpuPercent: report.cpuPercent,
          packetsPerViewerPerSecond: received / viewers / report.seconds,
          pictureLatencyP50Ms: quantileOf(report.pictureCounts, 0.5),
          pictureLatencyP99Ms: quantileOf(report.pictureCounts, 0.99),
          packetLatencyP99Ms: quantileOf(report.packetCounts, 0.99),
        };
      },
    );
  } finally {
    sender.kill();
    for (const r of receivers) r.socket.close();
  }
}
