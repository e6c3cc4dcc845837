/**
 * Hostile bytes at the cockpit's WebRTC ports. Both of its peer connections listen on every host
 * candidate they name, LAN addresses included: the relay's, one per viewer (relay/relay-peer.ts),
 * and the robot camera's consumer (sources/webrtc-consumer.ts). Anyone on the network can send
 * them anything. Noise and malformed STUN, DTLS, RTP and RTCP (testing/hostile-udp.ts), sent
 * before the connection is up and again while video flows, must neither throw (an uncaught
 * error ends the cockpit, main/fatal-net.ts, and fails this run) nor stop the video. Each batch
 * is proved read before the next (the probe in hostile-udp.ts).
 */
import { RtpHeader, RtpPacket } from 'werift';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { hostCandidates, hostileDatagrams, sendHostile } from '../testing/hostile-udp.ts';
import { RelayPeer } from './relay/relay-peer.ts';
import { createWeriftViewer } from './relay/testing/werift-viewer.ts';
import { createConsumerSession } from './sources/webrtc-consumer.ts';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function relayPeer(gone: string[]): RelayPeer {
  const peer = new RelayPeer({ pictureLoss() {}, heard() {}, connected() {}, gone: (reason) => gone.push(reason) });
  cleanup.push(() => peer.close());
  return peer;
}

/**
 * Sends pictures from `peer`, one a turn, until `received()` reaches `n`. A packet sent before
 * the relay's end of the connection is up is not sent at all, so the first may take a few.
 */
async function sendUntil(peer: RelayPeer, received: () => number, n: number): Promise<void> {
  let seq = 0;
  while (received() < n) {
    seq += 1;
    const header = new RtpHeader({
      sequenceNumber: seq,
      timestamp: seq * 6000,
      ssrc: 7,
      payloadType: 102,
      marker: true,
    });
    // An IDR slice in one packet: a keyframe a viewer can start at.
    await peer.send({
      rtp: new RtpPacket(header, Buffer.from([0x65, 0x88, 0x84, seq & 0xff])),
      receivedAt: 0,
      pictureAt: 0,
      keyframeStart: true,
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
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
    await sendUntil(peer, () => viewer.received, 1);

    await blast(offer, 25); // at the very ports the viewer's media and RTCP use
    const before = viewer.received;
    await sendUntil(peer, () => viewer.received, before + 1);
    expect(gone).toEqual([]);
  });

  it("at the robot camera's consumer: every one read, while video flows, and the video goes on", async () => {
    const gone: string[] = [];
    const peer = relayPeer(gone); // stands in for the robot: it offers sendonly H.264
    let answer: string | undefined;
    let received = 0;
    const failed: string[] = [];
    const consumer = createConsumerSession({
      log: silentLog,
      signal: (inner) => (answer = (inner.sdp as { sdp: string }).sdp),
      onAccessUnit() {},
      onVideoRtp: () => (received += 1),
      onParameterSets() {},
      onFailed: (reason) => failed.push(reason),
      audio: false,
      onOpus() {},
    });
    cleanup.push(() => consumer.close());
    await consumer.handlePeer({ sdp: { type: 'offer', sdp: await peer.offer() } });
    if (answer === undefined) throw new Error('the consumer did not answer');
    await peer.answer(answer);
    await sendUntil(peer, () => received, 1);

    await blast(answer, 26);
    await sendUntil(peer, () => received, received + 1);
    expect(failed).toEqual([]);
    expect(gone).toEqual([]);
  });
});
