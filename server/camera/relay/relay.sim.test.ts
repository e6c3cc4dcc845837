/**
 * The WebRTC relay against the simulator, which sends H.264 over WebRTC like the daemon: browsers
 * (werift stand-ins here; Chromium in e2e/relay.spec.ts) receive the robot's packets with their
 * payload byte for byte, all of them through the ONE upstream session, which is renegotiated,
 * never duplicated, when the microphone is added; and viewers joining and leaving leave nothing
 * behind (peer connections, sockets, timers counted).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { waitFor } from '../../sim/test-helpers.ts';
import { createFrameHub, type FrameHub } from '../frame-hub.ts';
import { createWebrtcSource } from '../sources/webrtc-source.ts';
import { openRelayPeers } from './relay-peer.ts';
import { createWeriftViewer, type WeriftViewer } from './testing/werift-viewer.ts';
import { createVideoRelay, type RelayViewer, type VideoRelay } from './video-relay.ts';

let sim: SimDaemon;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  sim = await startSimDaemon();
});
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
afterAll(() => sim.close());

function daemonRelay(): { hub: FrameHub; relay: VideoRelay } {
  const source = createWebrtcSource({ url: sim.cameraSignallingUrl, log: silentLog, microphoneLingerMs: 200 });
  const hub = createFrameHub({ source, log: silentLog });
  hub.start();
  const relay = createVideoRelay({ hub, log: silentLog });
  cleanup.push(() => hub.stop());
  cleanup.push(() => relay.stop());
  return { hub, relay };
}

async function join(relay: VideoRelay, keep = 0): Promise<{ viewer: RelayViewer; client: WeriftViewer; closed: string[] }> {
  const closed: string[] = [];
  const opened = relay.open({ closed: (reason) => closed.push(reason) });
  if (!opened.ok) throw new Error(opened.error);
  const client = createWeriftViewer(keep);
  await opened.viewer.answer(await client.answer(await opened.viewer.offer()));
  await client.connected();
  return { viewer: opened.viewer, client, closed };
}

describe('WebRTC relay (simulator)', () => {
  it('forwards the robot H.264 payloads unchanged to two viewers over one upstream session', async () => {
    const { hub, relay } = daemonRelay();
    const upstream = new Set<string>();
    const watched = hub.watchVideo((rtp) => void upstream.add(rtp.payload.toString('base64')));
    if (!watched.ok) throw new Error(watched.error);
    cleanup.push(() => watched.watch.close());
    const a = await join(relay, 40);
    const b = await join(relay, 40);
    cleanup.push(() => a.client.close(), () => b.client.close());
    await waitFor(() => a.client.packets.length >= 40 && b.client.packets.length >= 40, 20_000);
    for (const client of [a.client, b.client]) {
      for (const rtp of client.packets) expect(upstream.has(rtp.payload.toString('base64'))).toBe(true);
    }
    expect(sim.counters().cameraSessions).toBe(1);
    expect(relay.stats()).toMatchObject({ viewers: 2, connected: 2, upstreamWatches: 1 });
    // No JPEG consumer: the decoder is not asked for.
    expect(hub.stats().jpegWanted).toBe(false);
  });

  it('renegotiates the one upstream session when the microphone is added, and viewers keep receiving', async () => {
    const { hub, relay } = daemonRelay();
    const { client } = await join(relay);
    cleanup.push(() => client.close());
    await waitFor(() => client.received > 20, 20_000);
    const totalBefore = sim.counters().cameraSessionsTotal;
    const listen = hub.listenMicrophone({ pcm: () => {}, end: () => {} });
    if (!listen.ok) throw new Error(listen.error);
    cleanup.push(() => listen.subscription.close());
    await waitFor(() => sim.counters().cameraAudioSessions === 1, 20_000);
    const at = client.received;
    await waitFor(() => client.received > at + 20, 20_000);
    // Never two at once (the simulator's peak, over this test file's one simulator): the session
    // was replaced (renegotiated), not joined by a second one.
    expect(sim.counters().cameraSessionsPeak).toBe(1);
    expect(sim.counters().cameraSessions).toBe(1);
    // At least the one replacement (a stalled picture on a loaded machine may add re-acquisitions).
    expect(sim.counters().cameraSessionsTotal).toBeGreaterThanOrEqual(totalBefore + 1);
  });

  it('leaves no peer connections, sockets or timers behind after 100 viewers join and leave', async () => {
    const { hub, relay } = daemonRelay();
    const resources = (): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
      return counts;
    };
    // Warm: the upstream session exists before the baseline is taken, and stays (idle stop).
    const first = await join(relay);
    await waitFor(() => first.client.received > 0, 20_000);
    first.viewer.close();
    await first.client.close();
    await waitFor(() => openRelayPeers() === 0);
    const before = resources();
    for (let round = 0; round < 10; round += 1) {
      const viewers = await Promise.all(Array.from({ length: 10 }, () => join(relay)));
      await waitFor(() => viewers.every((v) => v.client.received > 0), 20_000);
      for (const v of viewers) v.viewer.close();
      await Promise.all(viewers.map((v) => v.client.close()));
    }
    expect(relay.stats().viewers).toBe(0);
    expect(relay.stats().viewersClosed.total).toBe(101);
    expect(hub.stats().videoWatchers).toBe(0);
    expect(sim.counters().cameraSessions).toBe(1);
    await waitFor(() => openRelayPeers() === 0);
    const settled = await waitFor(() => {
      const now = resources();
      const same = ['UDPWRAP', 'TCPSocketWrap', 'Timeout'].every((k) => (now[k] ?? 0) <= (before[k] ?? 0));
      return same ? now : undefined;
    }, 15_000).catch(() => resources());
    for (const kind of ['UDPWRAP', 'TCPSocketWrap', 'Timeout']) expect(settled[kind] ?? 0).toBeLessThanOrEqual(before[kind] ?? 0);
  }, 120_000);
});
