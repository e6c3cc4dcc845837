/**
 * Hostile bytes at the cockpit's WebRTC ports. Both of its peer connections listen on every host
 * candidate they name, LAN addresses included: the relay's, one per viewer (relay/relay-peer.ts),
 * and the robot camera's consumer (sources/webrtc-consumer.ts). Anyone on the network can send
 * them anything. Noise and malformed STUN, DTLS, RTP and RTCP (testing/hostile-udp.ts), sent
 * before the connection is up and again while video flows, must neither throw (an uncaught
 * error ends the cockpit, main/fatal-net.ts, and fails this run) nor stop the video. Each batch
 * is proved read before the next (the probe in hostile-udp.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hostCandidates, hostileDatagrams, sendHostile } from '../testing/hostile-udp.ts';
import { RelayPeer } from './relay/relay-peer.ts';
import { createWeriftViewer } from './relay/testing/werift-viewer.ts';
import { robotToConsumer, sendPicturesUntil } from './testing/peer-pair.ts';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function relayPeer(gone: string[]): RelayPeer {
  const peer = new RelayPeer({ pictureLoss() {}, heard() {}, connected() {}, gone: (reason) => gone.push(reason) });
  cleanup.push(() => peer.close());
  return peer;
}

async function blast(sdp: string, seed: number): Promise<void> {
  const targets = hostCandidates(sdp);
  expect(targets.length).toBeGreaterThan(0);
  for (const target of targets) await sendHostile(target, hostileDatagrams(seed));
}

describe('hostile datagrams at the WebRTC ports', () => {
  it("at a viewer's relay peer: every one read, before the answer and while video flows, and the video goes on", async () => {
    const gone: string[] = [];
    const peer = relayPeer(gone);
    const viewer = createWeriftViewer();
    cleanup.push(() => viewer.close());
    const offer = await peer.offer();

    await blast(offer, 24); // the ports are open; nothing is connected yet
    await peer.answer(await viewer.answer(offer));
    await viewer.connected();
    await sendPicturesUntil(peer, () => viewer.received, 1);

    await blast(offer, 25); // at the very ports the viewer's media and RTCP use
    const before = viewer.received;
    await sendPicturesUntil(peer, () => viewer.received, before + 1);
    expect(gone).toEqual([]);
  });

  it("at the robot camera's consumer: every one read, while video flows, and the video goes on", async () => {
    const pair = await robotToConsumer();
    cleanup.push(() => pair.close());
    await sendPicturesUntil(pair.peer, pair.received, 1);

    await blast(pair.answer, 26);
    await sendPicturesUntil(pair.peer, pair.received, pair.received() + 1);
    expect(pair.failures).toEqual([]);
  });
});
