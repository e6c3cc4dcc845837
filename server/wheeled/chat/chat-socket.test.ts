import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../../agent/providers/testing/fake-script.ts';
import { eventually } from '../../testing/eventually.ts';
import { openSocket, startWheeledHarness, type OpenedSocket, type WheeledHarness } from '../testing/wheeled-harness.ts';

let h: WheeledHarness | undefined;
let socket: OpenedSocket | undefined;
afterEach(async () => {
  socket?.ws.close();
  socket = undefined;
  await h?.close();
  h = undefined;
});

const chatUrl = (harness: WheeledHarness, token = harness.serviceToken) =>
  `${harness.wsUrl}/ws/chat?token=${encodeURIComponent(token)}`;
const sendJson = (s: OpenedSocket, value: unknown) => s.ws.send(JSON.stringify(value));

/** "drive forward" → reasoning, a drive tool call, then a closing sentence on the tool's result. */
const driving: Script = (request) => {
  if (request.toolResults.length > 0)
    return { kind: 'answer', text: request.toolResults[0]?.isError ? 'The gate is closed.' : 'Rolling forward.' };
  if (/drive/.test(request.lastUserText))
    return {
      kind: 'answer',
      reasoning: 'The operator wants motion.',
      text: 'Let me try.',
      toolCalls: [{ name: 'drive', input: { linear: 0.5, angular: 0, duration: 0.5 } }],
    };
  return { kind: 'answer', text: `You said: ${request.lastUserText}` };
};

describe('/ws/chat', () => {
  it('answers ping with pong and drive frames with control_ack, clamped', async () => {
    h = await startWheeledHarness();
    socket = await openSocket(chatUrl(h));
    sendJson(socket, { type: 'ping' });
    expect(await socket.next((f) => f.type === 'pong')).toMatchObject({ time: expect.any(Number) });
    sendJson(socket, { type: 'control', linear: 2, angular: -0.25, duration: 5 });
    expect(await socket.next((f) => f.type === 'control_ack')).toEqual({
      type: 'control_ack',
      ok: true,
      applied: { linear: 1, angular: -0.25, duration: 1 },
      clamped: true,
    });
    sendJson(socket, { stop: true });
    expect(await socket.next((f) => f.type === 'control_ack' && f.stop === true)).toMatchObject({ ok: true });
    expect(h.server.base.state().velocity.linear).toBe(0);
    sendJson(socket, { type: 'control', linear: 'fast' });
    expect(await socket.next((f) => f.type === 'control_ack' && f.ok === false)).toMatchObject({
      error: 'linear must be a number from -1 to 1',
    });
  });

  it('stops the base at once when the socket that drives it closes', async () => {
    // The drive controller's clock stands still, so the frame never runs out by itself: only
    // the close can end it.
    const still = Date.now();
    h = await startWheeledHarness({ tuning: { driveNow: () => still } });
    socket = await openSocket(chatUrl(h));
    sendJson(socket, { type: 'control', linear: 1, angular: 0, duration: 1 });
    await socket.next((f) => f.type === 'control_ack');
    expect(h.server.base.state().driving).toMatchObject({ driver: 'operator', linear: 1 });
    socket.ws.close();
    await socket.closed;
    const harness = h;
    await eventually(() => harness.server.base.state().driving === null, { what: 'the frame to end with its socket' });
    expect(harness.server.base.state().velocity.linear).toBe(0);
  });

  it('streams a reply from the model: reasoning, tokens, the tool call, then done', async () => {
    h = await startWheeledHarness({ model: driving, frameDelayMs: 5 });
    socket = await openSocket(chatUrl(h));
    sendJson(socket, { type: 'chat', text: 'drive forward a little' });
    const done = await socket.next((f) => f.type === 'done' || f.type === 'error');
    expect(done).toMatchObject({ type: 'done', text: 'Let me try.\nThe gate is closed.' });
    const kinds = socket.frames.map((f) => (f.type === 'token' && f.complete ? 'token-complete' : f.type));
    expect(kinds.indexOf('reasoning')).toBeLessThan(kinds.indexOf('token'));
    expect(kinds).toContain('token-complete');
    const tools = socket.frames.filter((f) => f.type === 'tool');
    expect(tools).toEqual([
      {
        type: 'tool',
        id: expect.any(String),
        name: 'drive',
        phase: 'start',
        input: { linear: 0.5, angular: 0, duration: 0.5 },
      },
      expect.objectContaining({ phase: 'end', name: 'drive', error: expect.stringMatching(/drive gate is closed/) }),
    ]);
    const text = socket.frames
      .filter((f) => f.type === 'token')
      .map((f) => f.data)
      .join('');
    expect(text).toBe('Let me try.The gate is closed.');
    expect(
      socket.frames
        .filter((f) => f.type === 'reasoning')
        .map((f) => f.data)
        .join(''),
    ).toBe('The operator wants motion.');
  });

  it('takes a bare string as chat, keeps the conversation, and refuses a second chat while one streams', async () => {
    h = await startWheeledHarness({ model: true, frameDelayMs: 20 });
    socket = await openSocket(chatUrl(h));
    socket.ws.send('"hello there"');
    socket.ws.send(JSON.stringify({ type: 'chat', text: 'and again' }));
    expect(await socket.next((f) => f.type === 'error')).toMatchObject({
      error: expect.stringMatching(/still streaming/),
    });
    expect(await socket.next((f) => f.type === 'done')).toMatchObject({ text: 'You said: hello there' });
    socket.ws.send('plain words, not JSON');
    await socket.next((f) => f.type === 'done' && f.text === 'You said: plain words, not JSON');
    const second = h.fake?.requests[1]?.raw.messages as Array<{ role: string }>;
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('refuses 601 characters and says when no model is configured', async () => {
    h = await startWheeledHarness();
    socket = await openSocket(chatUrl(h));
    sendJson(socket, { type: 'chat', text: 'x'.repeat(601) });
    expect(await socket.next((f) => f.type === 'error')).toMatchObject({ error: expect.stringMatching(/at most 600/) });
    sendJson(socket, { type: 'chat', text: 'hi' });
    expect(await socket.next((f) => f.type === 'error' && f.error === 'no model configured')).toBeDefined();
  });

  it('drives as the thinker for a thinker token: refused until the gate opens', async () => {
    h = await startWheeledHarness();
    const thinker = (await h.server.mintServiceToken({ sub: 'thinker', name: 'persona', ttlSeconds: 600 })).token;
    socket = await openSocket(chatUrl(h, thinker));
    sendJson(socket, { type: 'control', linear: 0.3, angular: 0, duration: 0.3 });
    expect(await socket.next((f) => f.type === 'control_ack')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/gate is closed/),
    });
    h.server.base.controller.setGate(true, 'operator');
    sendJson(socket, { type: 'control', linear: 0.3, angular: 0, duration: 0.3 });
    expect(await socket.next((f) => f.type === 'control_ack' && f.ok === true)).toBeDefined();
    expect(h.server.base.state().driving?.driver).toBe('thinker');
  });

  it("keeps the socket of a service token that runs for a month (as in the README's mint-token example)", async () => {
    h = await startWheeledHarness();
    const month = (await h.server.mintServiceToken({ sub: 'thinker', name: 'persona', ttlSeconds: 2_592_000 })).token;
    socket = await openSocket(chatUrl(h, month));
    // The expiry timer used to overflow and fire at once (4401 "session expired"): by the time an
    // HTTP round trip and a ping are answered it had closed the socket.
    expect((await h.call('/api/state', { token: month })).status).toBe(200);
    sendJson(socket, { type: 'ping' });
    const first = await Promise.race([
      socket.next((f) => f.type === 'pong').then(() => 'pong'),
      socket.closed.then((code) => `closed ${code}`),
    ]);
    expect(first).toBe('pong');
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });
});
