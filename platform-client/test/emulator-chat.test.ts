/**
 * The emulator's chat stream and endpoint-device routes checked against docs/platform.md's own
 * statements ("Chat and tools", "Chat stream", "Devices", "Limits"), not against the client.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualScheduler, type ManualScheduler } from './manual-scheduler.ts';
import { startPlatformEmulator, type PlatformEmulator } from './platform-emulator.ts';

let sched: ManualScheduler;
let emu: PlatformEmulator;
let owner: { userId: string; session: string };

beforeEach(async () => {
  sched = createManualScheduler();
  emu = await startPlatformEmulator({ now: sched.now, timers: sched });
  owner = emu.addUser('owner');
});
afterEach(() => emu.close());

const post = (path: string, body: unknown, session: string | null = owner.session, headers = {}) =>
  fetch(`${emu.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(session ? { authorization: `Bearer ${session}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });

/** The data payloads of a finished stream, parsed (except [DONE]). */
function frames(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((f) => f.startsWith('data: '))
    .map((f) => f.slice(6))
    .map((d) => (d === '[DONE]' ? d : (JSON.parse(d) as unknown)));
}

describe('POST /api/chat', () => {
  it('streams typed frames with seq from 0, one more each, and ends with [DONE]', async () => {
    emu.setChatScript((turn) => turn.say('Hel', 'lo', ''));
    const res = await post('/api/chat', { messages: [{ role: 'user', content: 'hi' }] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const out = frames(await res.text());
    expect(out.at(-1)).toBe('[DONE]');
    const events = out.slice(0, -1) as Array<{ type: string; seq: number; textDelta?: string }>;
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.filter((e) => e.type === 'modelContentBlockDeltaEvent').map((e) => e.textDelta)).toEqual([
      'Hel',
      'lo',
      '',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'agentResultEvent' });
  });

  it('is public on the free tier, and refuses a request without messages or with a bad role', async () => {
    expect((await post('/api/chat', { messages: [{ role: 'user', content: 'hi' }] }, null)).status).toBe(200);
    expect((await post('/api/chat', { messages: [] })).status).toBe(400);
    expect((await post('/api/chat', { messages: [{ role: 'tool', content: 'x' }] })).status).toBe(400);
    expect((await post('/api/chat', { messages: [{ role: 'user', content: [{ text: 'blocks' }] }] })).status).toBe(200);
  });

  it('keeps the last 31 messages', async () => {
    const messages = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    await (await post('/api/chat', { messages })).text();
    const turn = emu.chat.turns[0]!;
    expect(turn.sent).toBe(40);
    expect(turn.messages).toHaveLength(31);
    expect(turn.messages[0]).toEqual({ role: 'assistant', content: 'm9' });
  });

  it('sends : ping every 15000 ms while the stream is open', async () => {
    let finish!: () => void;
    emu.setChatScript(() => new Promise<void>((resolve) => (finish = resolve)));
    const res = await post('/api/chat', { messages: [{ role: 'user', content: 'hi' }] });
    const reader = res.body!.getReader();
    let seen = '';
    const read = async (needle: RegExp, count: number) => {
      while ((seen.match(needle) ?? []).length < count) seen += new TextDecoder().decode((await reader.read()).value);
    };
    await read(/modelMessageStartEvent/g, 1);
    expect(sched.dueIn()).toEqual([15_000]);
    await sched.advance(15_000);
    await read(/: ping/g, 1);
    await sched.advance(15_000);
    await read(/: ping/g, 2);
    finish();
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += new TextDecoder().decode(r.value);
    expect(seen).toMatch(/data: \[DONE\]\n\n$/);
    expect(sched.pending()).toBe(0);
  });

  it('ends with an error frame then [DONE] on a mid-stream failure and on a preflight refusal', async () => {
    emu.setChatScript((turn) => {
      turn.say('part');
      throw new Error('model overloaded');
    });
    const mid = frames(await (await post('/api/chat', { messages: [{ role: 'user', content: 'x' }] })).text());
    expect(mid.slice(-2)).toEqual([{ type: 'error', error: 'model overloaded', seq: expect.any(Number) }, '[DONE]']);
    emu.chat.preflightError = 'no model key';
    const pre = frames(await (await post('/api/chat', { messages: [{ role: 'user', content: 'x' }] })).text());
    expect(pre).toEqual([{ type: 'error', error: 'no model key', seq: 0 }, '[DONE]']);
  });

  it('waits for POST /api/chat/tool-result on a client-side tool and reports it with image bytes elided', async () => {
    emu.setChatScript(async (turn) => {
      const payload = await turn.callTool('snapshot', { width: 320 });
      turn.say(`got ${JSON.stringify(payload).length} bytes`);
    });
    const res = await post('/api/chat', { messages: [{ role: 'user', content: 'look' }] });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('beforeToolCallEvent')) seen += new TextDecoder().decode((await reader.read()).value);
    const before = frames(seen).find((f) => (f as { type?: string }).type === 'beforeToolCallEvent') as {
      toolCall: { name: string; toolUseId: string; input: unknown };
    };
    expect(before.toolCall).toMatchObject({ name: 'snapshot', input: { width: 320 } });
    const id = before.toolCall.toolUseId;
    expect((await post('/api/chat/tool-result', { toolUseId: id, payload: {} }, null)).status).toBe(401);
    expect((await post('/api/chat/tool-result', { toolUseId: 'other', payload: {} })).status).toBe(404);
    const payload = { status: 'success', content: [{ image: { format: 'png', source: { bytes: 'AAAA' } } }] };
    expect(await (await post('/api/chat/tool-result', { toolUseId: id, payload })).json()).toEqual({ ok: true });
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += new TextDecoder().decode(r.value);
    const after = frames(seen).find((f) => (f as { type?: string }).type === 'afterToolCallEvent');
    expect(after).toMatchObject({
      toolResult: { name: 'snapshot', toolUseId: id, content: { content: [{ image: { elided: true } }] } },
    });
    expect(emu.chat.results).toEqual([{ toolUseId: id, payload }]);
  });
});

describe('endpoint devices', () => {
  it('enrols an endpoint device with no token, listed with its origin', async () => {
    const out = await post('/api/devices', {
      name: 'reachy',
      kind: 'endpoint',
      url: 'https://robot.example.com/x',
      secret: 's',
    });
    expect(await out.json()).toMatchObject({ ok: true, device_id: expect.any(String), device_token: null });
    expect(
      (await post('/api/devices', { name: 'lan', kind: 'endpoint', url: 'https://10.0.0.2', secret: 's' })).status,
    ).toBe(400);
  });

  it('runs one chat turn and reports failures with the flag that says why', async () => {
    const id = (await (
      await post('/api/devices', { name: 'reachy', kind: 'endpoint', url: 'https://robot.example.com', secret: 's' })
    ).json()) as { device_id: string };
    expect(await (await post('/api/devices/endpoint/chat', { deviceId: id.device_id, prompt: 'wave' })).json()).toEqual(
      {
        ok: true,
        result: 'endpoint heard: wave',
      },
    );
    emu.setEndpointScript(() => ({ failure: 'timeout' }));
    expect(
      await (await post('/api/devices/endpoint/chat', { deviceId: id.device_id, prompt: 'wave' })).json(),
    ).toMatchObject({
      ok: false,
      error: expect.any(String),
      timeout: true,
    });
    expect((await post('/api/devices/endpoint/chat', { deviceId: id.device_id, prompt: 'wave' }, null)).status).toBe(
      401,
    );
  });

  it('answers telemetry as JSON and a snapshot as image bytes on GET', async () => {
    const id = (await (
      await post('/api/devices', { name: 'reachy', kind: 'endpoint', url: 'https://robot.example.com', secret: 's' })
    ).json()) as { device_id: string };
    const get = (action: string) =>
      fetch(`${emu.url}/api/devices/endpoint?deviceId=${id.device_id}&action=${action}`, {
        headers: { authorization: `Bearer ${owner.session}` },
      });
    expect(await (await get('telemetry')).json()).toEqual({ ok: true, result: { battery: 80 } });
    emu.setEndpointScript(() => ({ image: { bytes: Buffer.from('jpeg'), contentType: 'image/jpeg' } }));
    const snap = await get('snapshot');
    expect(snap.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await snap.arrayBuffer()).toString()).toBe('jpeg');
    expect((await get('reboot')).status).toBe(400);
  });
});
