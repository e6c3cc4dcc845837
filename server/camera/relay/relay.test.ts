/**
 * The relay's rules on a clock the test steps: keyframe requests coalesced to one a second,
 * slow viewers dropped to the next keyframe with a bounded queue, vanished viewers closed
 * within 10 s, and keyframes spotted in H.264 RTP payloads.
 */
import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { fakeClock, manualSchedule } from '../../perception/testing/fakes.ts';
import type { FrameHub, VideoWatchResult } from '../frame-hub.ts';
import { createKeyframeRequests } from './keyframe-requests.ts';
import type { RelayPeerEvents } from './relay-peer.ts';
import { countsBetween, quantileOf } from './latency-histogram.ts';
import { createKeyframeSpotter, payloadKind } from './rtp-h264-kind.ts';
import { createVideoRelay, type ViewerPeer } from './video-relay.ts';
import { ViewerQueue, type RelayPacket } from './viewer-queue.ts';

const IDR = Buffer.from([0x65, 1, 2]);
const SPS = Buffer.from([0x67, 0x42, 0xe0]);
const SLICE = Buffer.from([0x41, 1, 2]);
const stapA = (...nals: Buffer[]): Buffer =>
  Buffer.concat([Buffer.from([24]), ...nals.flatMap((n) => [Buffer.from([n.length >> 8, n.length & 0xff]), n])]);
const fuA = (type: number, start: boolean): Buffer => Buffer.from([28 | 0x60, (start ? 0x80 : 0) | type, 9]);

function packet(seq: number, timestamp: number, payload: Buffer, keyframeStart = false, marker = false): RelayPacket {
  const header = new RtpHeader({ sequenceNumber: seq, timestamp, ssrc: 7, payloadType: 102, marker });
  return { rtp: new RtpPacket(header, payload), receivedAt: 0, pictureAt: 0, keyframeStart };
}

describe('H.264 payloads', () => {
  it('tells keyframe starts from other pictures in single NAL units, STAP-A and FU-A', () => {
    expect(payloadKind(SPS)).toBe('key');
    expect(payloadKind(IDR)).toBe('key');
    expect(payloadKind(SLICE)).toBe('delta');
    expect(payloadKind(stapA(Buffer.from([0x09, 0xf0]), SPS, Buffer.from([0x68, 1])))).toBe('key');
    expect(payloadKind(stapA(Buffer.from([0x06, 1]), SLICE))).toBe('delta');
    expect(payloadKind(fuA(5, true))).toBe('key');
    expect(payloadKind(fuA(5, false))).toBe('more');
    expect(payloadKind(Buffer.from([0x09, 0xf0]))).toBe('other');
  });

  it('spots the first picture packet of a keyframe unit only', () => {
    const spot = createKeyframeSpotter();
    expect(spot(1, Buffer.from([0x09, 0xf0]))).toBe(false); // a delimiter before the keyframe
    expect(spot(1, SPS)).toBe(true);
    expect(spot(1, fuA(5, true))).toBe(false); // the IDR after its SPS is the same unit
    expect(spot(1, fuA(5, false))).toBe(false);
    expect(spot(2, SLICE)).toBe(false);
    expect(spot(3, fuA(5, true))).toBe(true); // a keyframe without in-band SPS
  });
});

describe('keyframe requests', () => {
  it('reach the robot at most once a second, and a request inside the second is sent when it ends', () => {
    const clock = fakeClock();
    const timers = manualSchedule();
    let sent = 0;
    const requests = createKeyframeRequests({ send: () => (sent += 1), now: clock.now, schedule: timers.schedule });
    for (let i = 0; i < 50; i += 1) requests.request();
    expect(sent).toBe(1);
    expect(timers.delays).toEqual([1000]);
    clock.advance(1000);
    timers.runAll();
    expect(sent).toBe(2);
    requests.request();
    expect(sent).toBe(2);
    clock.advance(1000);
    timers.runAll();
    expect(sent).toBe(3);
    clock.advance(5000);
    requests.request();
    expect(sent).toBe(4);
    expect(requests.counts()).toEqual({ asked: 52, sent: 4 });
  });
});

describe('a viewer that falls behind', () => {
  it('is dropped to the next keyframe and never queues more than its bound', async () => {
    const pending: (() => void)[] = [];
    let needs = 0;
    const sent: number[] = [];
    const queue = new ViewerQueue({
      // A viewer whose socket never takes the bytes.
      send: (p) => new Promise<void>((resolve) => pending.push(() => (sent.push(p.rtp.header.sequenceNumber), resolve()))),
      needKeyframe: () => (needs += 1),
      sent: () => {},
      maxQueued: 10,
      maxInFlight: 2,
    });
    queue.restartAtKeyframe();
    queue.offer(packet(1, 10, SLICE));
    expect(queue.stats()).toMatchObject({ waiting: true, queued: 0, dropped: 1 });
    queue.offer(packet(2, 20, SPS, true));
    for (let seq = 3; seq < 14; seq += 1) queue.offer(packet(seq, 20 + seq, SLICE));
    expect(queue.stats()).toMatchObject({ queued: 10, waiting: false });
    queue.offer(packet(14, 40, SLICE));
    expect(queue.stats()).toMatchObject({ queued: 0, waiting: true, skips: 1 });
    expect(needs).toBe(2);
    queue.offer(packet(15, 50, SLICE));
    queue.offer(packet(16, 60, IDR, true));
    // The sends in flight complete; the viewer goes on from the keyframe, nothing older.
    for (const release of pending.splice(0)) release();
    await new Promise((resolve) => setImmediate(resolve));
    for (const release of pending.splice(0)) release();
    expect(sent).toEqual([2, 3, 16]);
    expect(queue.stats()).toMatchObject({ queued: 0, sent: 2, waiting: false });
  });
});

describe('viewers that vanish', () => {
  function fakeHub(): FrameHub & { watches: number } {
    const hub = {
      watches: 0,
      watchVideo(): VideoWatchResult {
        hub.watches += 1;
        return { ok: true, watch: { close: () => (hub.watches -= 1), requestKeyframe: () => {} } };
      },
    };
    return hub as unknown as FrameHub & { watches: number };
  }

  it('are closed within 10 s of their last word, and the upstream watch ends with the last one', () => {
    const clock = fakeClock();
    const timers = manualSchedule();
    const peers: { events: RelayPeerEvents; closed: boolean }[] = [];
    const hub = fakeHub();
    const relay = createVideoRelay({
      hub,
      log: silentLog,
      now: clock.now,
      schedule: timers.schedule,
      createPeer(events): ViewerPeer {
        const peer = { events, closed: false };
        peers.push(peer);
        return {
          offer: () => Promise.resolve('v=0'),
          answer: () => Promise.resolve(),
          candidate: () => Promise.resolve(),
          send: () => Promise.resolve(),
          close: () => void (peer.closed = true),
        };
      },
    });
    const reasons: string[] = [];
    const a = relay.open({ closed: (r) => reasons.push(`a: ${r}`) });
    const b = relay.open({ closed: (r) => reasons.push(`b: ${r}`) });
    expect(a.ok && b.ok).toBe(true);
    expect(hub.watches).toBe(1);
    for (const peer of peers) {
      peer.events.connected();
      peer.events.heard();
    }
    // b keeps talking (RTCP), a goes silent: Wi-Fi lost, tab killed.
    for (let s = 0; s < 10; s += 1) {
      clock.advance(1000);
      peers[1]?.events.heard();
      timers.runAll();
    }
    expect(reasons).toEqual(['a: no word from the viewer for 8000 ms']);
    expect(peers.map((p) => p.closed)).toEqual([true, false]);
    expect(relay.stats()).toMatchObject({ viewers: 1, viewersClosed: { silent: 1, total: 1 } });
    expect(hub.watches).toBe(1);
    // One that never connects is closed after the setup time.
    const c = relay.open({ closed: (r) => reasons.push(`c: ${r}`) });
    expect(c.ok).toBe(true);
    for (let s = 0; s < 16; s += 1) {
      clock.advance(1000);
      peers[1]?.events.heard();
      timers.runAll();
    }
    expect(reasons.at(-1)).toBe('c: the viewer never connected');
    if (b.ok) b.viewer.close();
    expect(relay.stats().viewers).toBe(0);
    expect(hub.watches).toBe(0);
    expect(timers.pending()).toBe(0);
  });

  it('refuses viewers when the camera has no WebRTC video, saying why', () => {
    const hub = { watchVideo: (): VideoWatchResult => ({ ok: false, error: 'no RTP' }) } as unknown as FrameHub;
    const relay = createVideoRelay({ hub, log: silentLog });
    expect(relay.open({ closed: () => {} })).toEqual({ ok: false, code: 'VIDEO_UNAVAILABLE', error: 'no RTP' });
  });

  /**
   * A relay with connected viewers whose sends wait until the test releases them, and whose
   * sending turns wait until the test runs them.
   */
  function heldRelay(viewers = 1) {
    const clock = fakeClock();
    const held: Array<() => void> = [];
    const sends: string[] = [];
    const turns: Array<() => void> = [];
    let forward: (rtp: RtpPacket) => void = () => {};
    const hub = {
      watchVideo(onPacket: (rtp: RtpPacket) => void): VideoWatchResult {
        forward = onPacket;
        return { ok: true, watch: { close: () => {}, requestKeyframe: () => {} } };
      },
    } as unknown as FrameHub;
    const peers: RelayPeerEvents[] = [];
    const relay = createVideoRelay({
      hub,
      log: silentLog,
      now: clock.now,
      schedule: manualSchedule().schedule,
      defer: (turn) => turns.push(turn),
      createPeer(events): ViewerPeer {
        const name = String.fromCharCode(97 + peers.length);
        peers.push(events);
        return {
          offer: () => Promise.resolve('v=0'),
          answer: () => Promise.resolve(),
          candidate: () => Promise.resolve(),
          send: (p) => {
            sends.push(`${name}${p.rtp.header.sequenceNumber}`);
            return new Promise<void>((resolve) => held.push(resolve));
          },
          close: () => {},
        };
      },
    });
    for (let i = 0; i < viewers; i += 1) relay.open({ closed: () => {} });
    for (const peer of peers) peer.connected();
    const runTurns = () => {
      while (turns.length > 0) turns.shift()?.();
    };
    return { clock, held, sends, turns, runTurns, relay, forward: (rtp: RtpPacket) => forward(rtp) };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('counts each packet from its arrival to its hand-over, over any span the reader picks', async () => {
    const { clock, held, runTurns, relay, forward } = heldRelay();
    // A keyframe handed over 2 ms after it came, then a picture 0.2 ms after.
    forward(packet(1, 90, IDR, true).rtp);
    clock.advance(2);
    runTurns();
    held.shift()?.();
    await settle();
    const afterKeyframe = relay.stats().latencyCounts;
    forward(packet(2, 180, SLICE).rtp);
    clock.advance(0.2);
    runTurns();
    held.shift()?.();
    await settle();
    const all = relay.stats().latencyCounts;
    expect(quantileOf(all, 1)).toBe(2.05);
    expect(all.counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(quantileOf(countsBetween(afterKeyframe, all), 1)).toBe(0.25);
  });

  it('counts each picture from the arrival of its first packet to the hand-over of its last', async () => {
    const { clock, held, runTurns, relay, forward } = heldRelay();
    // A keyframe in three packets, each read 1 ms after the one before, all three sent at 3 ms.
    forward(packet(1, 90, fuA(5, true), true).rtp);
    clock.advance(1);
    forward(packet(2, 90, fuA(5, false)).rtp);
    clock.advance(1);
    forward(packet(3, 90, fuA(5, false), false, true).rtp);
    clock.advance(1);
    runTurns();
    while (held.length > 0) held.shift()?.();
    await settle();
    const keyframe = relay.stats();
    expect(quantileOf(keyframe.latencyCounts, 1)).toBe(3.05); // the first packet; the last waited 1 ms
    expect(quantileOf(keyframe.pictureLatencyCounts, 1)).toBe(3.05);
    expect(keyframe.pictureLatencyCounts.counts.reduce((a, b) => a + b, 0)).toBe(1);
    // The next picture, one packet, handed over 0.5 ms after it came.
    forward(packet(4, 180, SLICE, false, true).rtp);
    clock.advance(0.5);
    runTurns();
    held.shift()?.();
    await settle();
    const next = countsBetween(keyframe.pictureLatencyCounts, relay.stats().pictureLatencyCounts);
    expect(quantileOf(next, 1)).toBe(0.55);
    expect(next.counts.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('sends each viewer the whole of what came, one viewer after another, the first moving on each picture', () => {
    const { sends, turns, runTurns, forward } = heldRelay(2);
    forward(packet(1, 90, fuA(5, true), true).rtp);
    forward(packet(2, 90, fuA(5, false)).rtp);
    forward(packet(3, 90, fuA(5, false), false, true).rtp);
    // Nothing is sent while packets are still being read; one turn waits per viewer.
    expect(sends).toEqual([]);
    expect(turns).toHaveLength(2);
    turns.shift()?.();
    expect(sends).toEqual(['a1', 'a2', 'a3']);
    runTurns();
    expect(sends).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    // The next picture: a turn again for each, b's first this time; then a's again.
    forward(packet(4, 180, SLICE, false, true).rtp);
    expect(turns).toHaveLength(2);
    runTurns();
    forward(packet(5, 270, SLICE, false, true).rtp);
    runTurns();
    expect(sends.slice(6)).toEqual(['b4', 'a4', 'a5', 'b5']);
  });
});
