/**
 * The simulated camera speaks webrtcsink's signalling protocol on its own port, as the real
 * daemon does on 8443 (docs/daemon.md, "Media"), and counts its sessions: each is one upstream
 * camera client.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection, useH264, useOPUS } from 'werift';
import WebSocket from 'ws';
import { guardPeer } from '../peer-guard.ts';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { ok, waitFor } from './test-helpers.ts';

type Msg = Record<string, unknown> & { type: string };

interface Peer {
  ws: WebSocket;
  id: string;
  messages: Msg[];
  send(m: Record<string, unknown>): void;
  /** The next message of a type (already received or coming). */
  next(type: string, where?: (m: Msg) => boolean): Promise<Msg>;
}

async function connect(url: string): Promise<Peer> {
  const ws = new WebSocket(url);
  const messages: Msg[] = [];
  const taken = new Set<Msg>();
  ws.on('message', (d: Buffer) => messages.push(JSON.parse(d.toString()) as Msg));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (type: string, where: (m: Msg) => boolean = () => true): Promise<Msg> => {
    const found = await waitFor(() => messages.find((m) => m.type === type && !taken.has(m) && where(m)), 10_000, 10);
    taken.add(found);
    return found;
  };
  const welcome = await next('welcome');
  return { ws, id: String(welcome.peerId), messages, send: (m) => ws.send(JSON.stringify(m)), next };
}

let sim: SimDaemon;
const open: Peer[] = [];
const peer = async (): Promise<Peer> => {
  const p = await connect(sim.cameraSignallingUrl);
  open.push(p);
  return p;
};

beforeAll(async () => {
  sim = await startSimDaemon();
});
afterEach(async () => {
  for (const p of open.splice(0)) p.ws.close();
  await ok(sim, 'POST', '/sim/camera', { on: true });
  await waitFor(() => sim.counters().cameraSignallingClients === 0 && sim.counters().cameraSessions === 0);
});
afterAll(() => sim.close());

async function producerId(p: Peer): Promise<string> {
  p.send({ type: 'list' });
  const list = await p.next('list');
  expect(list.producers).toEqual([{ id: expect.any(String) as unknown, meta: { name: 'reachymini' } }]);
  return (list.producers as { id: string }[])[0]?.id ?? '';
}

describe('signalling', () => {
  it('welcomes, lists the reachymini producer, and runs a session: offer, trickled loopback candidates, H.264', async () => {
    expect(sim.cameraSignallingUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const p = await peer();
    const producer = await producerId(p);
    p.send({ type: 'startSession', peerId: producer });
    const started = await p.next('sessionStarted');
    expect(started).toMatchObject({ peerId: producer, sessionId: expect.any(String) as unknown });
    const offer = await p.next('peer', (m) => m.sdp !== undefined);
    const sdp = (offer.sdp as { type: string; sdp: string }).sdp;
    expect((offer.sdp as { type: string }).type).toBe('offer');
    expect(sdp).toMatch(/a=rtpmap:\d+ h264\/90000/i);
    expect(sdp).toContain('packetization-mode=1');
    expect(sdp).toContain('a=sendonly');
    // The microphone is offered too, as webrtcsink does: Opus, sendonly.
    const audio = sdp.slice(sdp.indexOf('m=audio'));
    expect(audio).toMatch(/a=rtpmap:\d+ opus\/48000\/2/i);
    expect(audio).toContain('a=sendonly');
    expect(sdp).not.toContain('a=candidate');
    const ice = await p.next('peer', (m) => m.ice !== undefined);
    expect((ice.ice as { candidate: string }).candidate).toMatch(/^candidate:.* 127\.0\.0\.1 \d+ typ host/);
    expect(sim.counters()).toMatchObject({ cameraSessions: 1, cameraSignallingClients: 1 });

    // Answer like a consumer that does not listen to the microphone: the first packet of the
    // stream is the SPS of a keyframe, and no Opus encoder runs for the refused audio.
    const pc = new RTCPeerConnection({ codecs: { video: [useH264()], audio: [useOPUS()] }, iceServers: [] });
    const firstNalTypes: number[] = [];
    pc.onTrack.subscribe((t) => t.onReceiveRtp.subscribe((rtp) => firstNalTypes.push((rtp.payload[0] ?? 0) & 0x1f)));
    await pc.setRemoteDescription({ type: 'offer', sdp });
    for (const t of pc.getTransceivers()) if (t.kind === 'audio') t.setDirection('inactive');
    const answer = await pc.createAnswer();
    guardPeer(pc);
    await pc.setLocalDescription(answer);
    p.send({ type: 'peer', sessionId: started.sessionId, sdp: { type: 'answer', sdp: pc.localDescription?.sdp } });
    for (const m of p.messages.filter((x) => x.type === 'peer' && x.ice)) {
      await pc.addIceCandidate(m.ice as { candidate: string; sdpMLineIndex: number });
    }
    // Generous: an encoder and ICE on a starved 2-core machine can take several seconds.
    await waitFor(() => firstNalTypes.length >= 3, 30_000);
    expect(firstNalTypes[0]).toBe(7);
    expect(firstNalTypes[1]).toBe(8);
    expect(sim.counters().cameraAudioSessions).toBe(0);

    p.send({ type: 'endSession', sessionId: started.sessionId });
    await waitFor(() => sim.counters().cameraSessions === 0);
    expect(sim.counters().cameraSessionsTotal).toBeGreaterThanOrEqual(1);
    await pc.close();
  }, 60_000);

  it('answers protocol mistakes with an error message', async () => {
    const p = await peer();
    p.send({ type: 'startSession', peerId: 'nobody' });
    expect((await p.next('error')).details).toBe("Peer 'nobody' hasn't been welcomed");
    p.send({ type: 'startSession', peerId: p.id });
    expect((await p.next('error')).details).toContain('is not registered as a producer');
    p.send({ type: 'dance' });
    expect((await p.next('error')).details).toContain('unknown message type');
    p.send({ type: 'startSession', peerId: await producerId(p) });
    const { sessionId } = await p.next('sessionStarted');
    p.send({ type: 'peer', sessionId, sdp: { type: 'offer', sdp: 'v=0' } });
    expect((await p.next('error')).details).toContain('is not the producer');
  });

  it('ends the session of a consumer that disconnects', async () => {
    const p = await peer();
    p.send({ type: 'startSession', peerId: await producerId(p) });
    await p.next('sessionStarted');
    await waitFor(() => sim.counters().cameraSessions === 1);
    p.ws.close();
    await waitFor(() => sim.counters().cameraSessions === 0 && sim.counters().cameraSignallingClients === 0);
  });
});

describe('camera outages', () => {
  it('/sim/camera off withdraws the producer and ends sessions; on brings it back and listeners hear it', async () => {
    const listener = await peer();
    listener.send({ type: 'setPeerStatus', roles: ['listener'], meta: null });
    const consumer = await peer();
    consumer.send({ type: 'startSession', peerId: await producerId(consumer) });
    const { sessionId } = await consumer.next('sessionStarted');

    const status = await ok<{ camera: unknown }>(sim, 'POST', '/sim/camera', { on: false });
    expect(status.camera).toMatchObject({ on: false, live: false, signallingUrl: sim.cameraSignallingUrl });
    expect(await consumer.next('endSession')).toEqual({ type: 'endSession', sessionId });
    // The server tells listeners of every status change, their own included (handlers/mod.rs).
    const aboutProducer = (m: Msg): boolean => m.peerId !== listener.id;
    expect(await listener.next('peerStatusChanged', aboutProducer)).toMatchObject({
      roles: [],
      meta: { name: 'reachymini' },
    });
    consumer.send({ type: 'list' });
    expect((await consumer.next('list')).producers).toEqual([]);
    await waitFor(() => sim.counters().cameraSessions === 0);

    await ok(sim, 'POST', '/sim/camera', { on: true });
    expect(await listener.next('peerStatusChanged', aboutProducer)).toMatchObject({
      roles: ['producer'],
      meta: { name: 'reachymini' },
    });
    await producerId(consumer);
  });

  it('/api/media/release stops the camera with the rest of the media pipeline; acquire restores it', async () => {
    const p = await peer();
    await producerId(p);
    await ok(sim, 'POST', '/api/media/release');
    p.send({ type: 'list' });
    expect((await p.next('list')).producers).toEqual([]);
    expect((await ok<{ camera: { live: boolean } }>(sim, 'GET', '/sim/status')).camera.live).toBe(false);
    await ok(sim, 'POST', '/api/media/acquire');
    await producerId(p);
    expect(sim.counters()).toMatchObject({ mediaReleases: 1, mediaAcquires: 1 });
  });

  it('rejects a /sim/camera body without a boolean', async () => {
    const res = await fetch(`${sim.url}/sim/camera`, { method: 'POST', body: '{"on":"yes"}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'on must be true or false' });
  });
});
