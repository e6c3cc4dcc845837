/**
 * Relay signalling over the real cockpit's authenticated /ws (the in-process simulator behind
 * it): an offer with host candidates only, video after the answer, the viewer gone with its
 * socket, clear errors for bad messages, and a refusal when the camera has no WebRTC video.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '../../sim/test-helpers.ts';
import { startHarness, TEST_TOKEN, type Harness } from '../../testing/cockpit-harness.ts';
import { createWeriftViewer } from './testing/werift-viewer.ts';

interface Socket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  send(message: object): void;
  next(match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

async function open(h: Harness): Promise<Socket> {
  const ws = new WebSocket(`${h.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
  const messages: Record<string, unknown>[] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) messages.push(JSON.parse(String(data)) as Record<string, unknown>);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    messages,
    send: (message) => ws.send(JSON.stringify(message)),
    next: (match) => waitFor(() => messages.find(match), 20_000),
  };
}

async function relayViewers(h: Harness): Promise<number> {
  const body = (await (await h.authed('/api/console/camera/relay')).json()) as { relay: { viewers: number } };
  return body.relay.viewers;
}

// Each test waits on readiness (an offer, the first packet) with bounded polls; the budget covers a busy machine.
describe('relay signalling on /ws', { timeout: 60_000 }, () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('offers host candidates only, sends video after the answer, and forgets the viewer with its socket', async () => {
    const s = await open(h);
    s.send({ type: 'video', action: 'start' });
    const offer = await s.next((m) => m.type === 'video' && m.action === 'offer');
    const sdp = String(offer.sdp);
    expect(sdp).toMatch(/a=rtpmap:\d+ H264\/90000/i);
    const candidates = sdp.split('\r\n').filter((line) => line.startsWith('a=candidate:'));
    expect(candidates.length).toBeGreaterThan(0);
    for (const line of candidates) expect(line).toMatch(/ typ host/);
    const client = createWeriftViewer();
    s.send({ type: 'video', action: 'answer', id: offer.id, sdp: await client.answer(sdp) });
    await waitFor(() => client.received > 0, 30_000);
    expect(await relayViewers(h)).toBe(1);
    s.ws.close();
    await waitFor(async () => (await relayViewers(h)) === 0);
    await client.close();
  });

  it('answers bad messages with BAD_REQUEST, and a broken answer with the viewer closed', async () => {
    const s = await open(h);
    s.send({ type: 'video', action: 'dance' });
    expect(await s.next((m) => m.type === 'error')).toMatchObject({ code: 'BAD_REQUEST' });
    s.send({ type: 'video', action: 'answer', sdp: 'v=0' });
    await waitFor(() => s.messages.filter((m) => m.type === 'error').length === 2);
    expect(s.messages.filter((m) => m.type === 'error').map((m) => m.error)).toEqual([
      'video: "action" must be start, answer, candidate or stop, not "dance"',
      'video: "id" must be the number from the offer',
    ]);
    s.send({ type: 'video', action: 'start' });
    const offer = await s.next((m) => m.action === 'offer');
    s.send({ type: 'video', action: 'answer', id: offer.id, sdp: 'not an SDP at all' });
    const closed = await s.next((m) => m.action === 'closed');
    expect(closed.id).toBe(offer.id);
    // werift may report the failed negotiation as a failed connection before the answer call returns.
    expect(closed.reason).toMatch(/^(answer failed|peer connection failed)$/);
    await waitFor(async () => (await relayViewers(h)) === 0);
    // The socket and the cockpit carry on: a new viewer is offered.
    s.send({ type: 'video', action: 'start' });
    expect(await s.next((m) => m.action === 'offer' && m.id !== offer.id)).toMatchObject({ type: 'video' });
    s.ws.close();
    await waitFor(async () => (await relayViewers(h)) === 0);
  });
});

describe('relay signalling without a WebRTC camera', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ROBOT_CAMERA: 'off' });
  });
  afterAll(() => h.close());

  it('refuses with VIDEO_UNAVAILABLE and says why', async () => {
    const s = await open(h);
    s.send({ type: 'video', action: 'start' });
    const refused = await s.next((m) => m.type === 'video');
    expect(refused).toMatchObject({ action: 'refused', code: 'VIDEO_UNAVAILABLE' });
    expect(String(refused.error)).toMatch(/no camera is configured/);
    s.ws.close();
  });
});
