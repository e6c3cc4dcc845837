/**
 * Real werift peers for tests of the cockpit's WebRTC ports: a relay peer sending pictures, and
 * the robot camera's consumer answering a relay peer that stands in for the robot (it offers
 * sendonly H.264, as the daemon does).
 */
import { RtpHeader, RtpPacket } from 'werift';
import { silentLog } from '../../log.ts';
import { RelayPeer } from '../relay/relay-peer.ts';
import { createConsumerSession, type ConsumerSession } from '../sources/webrtc-consumer.ts';

/**
 * Sends pictures from `peer`, one a turn, until `received()` reaches `n`. A packet sent before
 * the relay's end of the connection is up is not sent at all, so the first may take a few.
 */
export async function sendPicturesUntil(peer: RelayPeer, received: () => number, n: number): Promise<void> {
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
    const rtp = new RtpPacket(header, Buffer.from([0x65, 0x88, 0x84, seq & 0xff]));
    await peer.send({ rtp, receivedAt: 0, pictureAt: 0, keyframeStart: true });
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface RobotToConsumer {
  /** Stands in for the robot. */
  peer: RelayPeer;
  consumer: ConsumerSession;
  offer: string;
  answer: string;
  /** Video RTP packets the consumer has received. */
  received(): number;
  /** Why the consumer or the peer gave up, if they did. */
  failures: string[];
  close(): void;
}

/** Signals a robot stand-in and the camera consumer to each other (the connection comes up after). */
export async function robotToConsumer(): Promise<RobotToConsumer> {
  const failures: string[] = [];
  const peer = new RelayPeer({ pictureLoss() {}, heard() {}, connected() {}, gone: (reason) => failures.push(reason) });
  let answer: string | undefined;
  let received = 0;
  const consumer = createConsumerSession({
    log: silentLog,
    signal: (inner) => (answer = (inner.sdp as { sdp: string }).sdp),
    onAccessUnit() {},
    onVideoRtp: () => (received += 1),
    onParameterSets() {},
    onFailed: (reason) => failures.push(reason),
    audio: false,
    onOpus() {},
  });
  const close = (): void => {
    consumer.close();
    peer.close();
  };
  const offer = await peer.offer();
  // The consumer signals its answer before handlePeer resolves.
  await consumer.handlePeer({ sdp: { type: 'offer', sdp: offer } });
  if (answer === undefined) {
    close();
    throw new Error('the consumer did not answer');
  }
  await peer.answer(answer);
  return { peer, consumer, offer, answer, received: () => received, failures, close };
}
