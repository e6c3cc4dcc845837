/**
 * Relay soak: SOAK_RELAY_SECONDS (default 120) of WebRTC viewers joining and leaving in a loop,
 * ten at a time until 100 have come and gone, then again, against the cockpit and simulator on
 * loopback. Each viewer is signalled over /ws and leaves once it has video. At the end the relay
 * must have no viewer left, the cockpit no more descriptors (sockets, UDP ports) than at the
 * start, and the simulator one camera session at most. Exits non-zero otherwise.
 * Run with `npm run soak:relay`. The in-process version, with timers counted, is
 * server/camera/relay/relay.sim.test.ts.
 */
import { readdirSync } from 'node:fs';
import { BENCH_TOKEN, startStack, type Stack } from './processes.ts';
import { descendants, sleep, treeRssMb } from './proc-stats.ts';
import { openRelayViewer } from './relay-viewers.ts';

const seconds = Number(process.env['SOAK_RELAY_SECONDS'] ?? 120);
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Open descriptors of the cockpit's process tree (the tsx wrapper and its node). */
function descriptors(stack: Stack): number {
  let total = 0;
  for (const pid of [stack.cockpit.pid, ...descendants(stack.cockpit.pid)]) {
    try {
      total += readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // gone
    }
  }
  return total;
}

async function relayCounts(stack: Stack): Promise<{ viewers: number; closed: number }> {
  const res = await fetch(`${stack.url}/api/console/camera/relay`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
  const body = (await res.json()) as { relay: { viewers: number; viewersClosed: { total: number } } };
  return { viewers: body.relay.viewers, closed: body.relay.viewersClosed.total };
}

async function cameraSessions(stack: Stack): Promise<number> {
  const status = (await (await fetch(`${stack.simUrl}/sim/status`)).json()) as { counters: { cameraSessions: number } };
  return status.counters.cameraSessions;
}

async function main(): Promise<void> {
  const stack = await startStack();
  try {
    // Warm: the upstream session and werift's first allocations exist before the baseline.
    const warm = await openRelayViewer(stack.url);
    await warm.close();
    await sleep(2000);
    const before = { fds: descriptors(stack), rssMb: treeRssMb(stack.cockpit.pid) };
    const deadline = performance.now() + seconds * 1000;
    let joined = 0;
    let errors = 0;
    while (performance.now() < deadline) {
      const group = await Promise.allSettled(Array.from({ length: 10 }, () => openRelayViewer(stack.url)));
      for (const r of group) {
        if (r.status === 'fulfilled') {
          joined += 1;
          await r.value.close();
        } else errors += 1;
      }
    }
    // Closing a socket closes its viewer at once; give the event loop a moment to finish the closes.
    for (let i = 0; i < 40 && (await relayCounts(stack)).viewers > 0; i += 1) await sleep(250);
    await sleep(2000);
    const after = { fds: descriptors(stack), rssMb: treeRssMb(stack.cockpit.pid) };
    const counts = await relayCounts(stack);
    const sessions = await cameraSessions(stack);
    say(
      `soak:relay: ${seconds} s; viewers joined and left ${joined} (errors ${errors}); relay viewers now ${counts.viewers}, closed ${counts.closed}; ` +
        `fds ${before.fds} → ${after.fds}; rss ${before.rssMb} → ${after.rssMb} MiB; upstream sessions ${sessions}`,
    );
    const leaked = counts.viewers > 0 || after.fds > before.fds + 5 || sessions > 1 || errors > 0;
    if (leaked) throw new Error('the relay left something behind or a viewer failed');
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`soak:relay failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
