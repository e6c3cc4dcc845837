/**
 * The emulator's device ask checked against the spec's statements (docs/platform.md, "Devices";
 * docs/platform.md, "Devices"): device auth in the body, text ≤4000, the SSE wire with `: thinking`,
 * `{"t"}` frames, in-stream `{error}` and `[DONE]`, the JSON answer without `stream`, and the
 * proxy's pass-through statuses.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wordPieces } from './emulator-ask.ts';
import { createManualScheduler } from './manual-scheduler.ts';
import { startPlatformEmulator, type PlatformEmulator } from './platform-emulator.ts';

let emu: PlatformEmulator;
let dev: { deviceId: string; token: string };

beforeEach(async () => {
  emu = await startPlatformEmulator();
  dev = emu.enrolDevice(emu.addUser('owner').session, 'robot');
});
afterEach(() => emu.close());

const ask = (body: Record<string, unknown>) =>
  fetch(`${emu.url}/api/devices/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId: dev.deviceId, token: dev.token, ...body }),
  });

describe('POST /api/devices/ask', () => {
  it('streams a thinking comment, four-word t frames and [DONE] with stream "1"', async () => {
    emu.setAskScript(() => ({ text: 'one two three four five six', card: { type: 'text', text: 'hi' } }));
    const res = await ask({ text: 'hello', stream: '1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe(
      ': thinking\n\n' +
        'data: {"t":"one two three four "}\n\n' +
        'data: {"t":"five six"}\n\n' +
        'data: {"card":{"type":"text","text":"hi"}}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  it('sends an error inside the stream, then [DONE]; a cut-off stream ends without it', async () => {
    emu.setAskScript(() => ({ text: 'partial', error: 'model overloaded' }));
    expect(await (await ask({ text: 'x', stream: '1' })).text()).toMatch(
      /data: \{"t":"partial"\}\n\ndata: \{"error":"model overloaded"\}\n\ndata: \[DONE\]\n\n$/,
    );
    emu.setAskScript(() => ({ text: 'partial', cutOff: true }));
    expect(await (await ask({ text: 'x', stream: '1' })).text()).not.toContain('[DONE]');
  });

  it('sends `: thinking` every 10 s while the agent works, on the emulator clock', async () => {
    await emu.close();
    const sched = createManualScheduler();
    emu = await startPlatformEmulator({ now: sched.now, timers: sched });
    dev = emu.enrolDevice(emu.addUser('owner').session, 'robot');
    let answer!: (a: { text: string }) => void;
    emu.setAskScript(() => new Promise((resolve) => (answer = resolve)));
    const res = await ask({ text: 'think hard', stream: '1' });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const readUntil = async (count: number) => {
      while ((seen.match(/: thinking/g) ?? []).length < count) seen += decoder.decode((await reader.read()).value);
    };
    await readUntil(1);
    await sched.advance(10_000);
    await readUntil(2);
    await sched.advance(10_000);
    await readUntil(3);
    answer({ text: 'done' });
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen += decoder.decode(r.value);
    expect(seen).toBe(': thinking\n\n'.repeat(3) + 'data: {"t":"done"}\n\ndata: [DONE]\n\n');
    expect(sched.pending()).toBe(0);
  });

  it('reads the agent under every spelling of the "tiny-equivalent agent" field, and audioUrl', async () => {
    const seen: unknown[] = [];
    emu.setAskScript((text, _dev, extra) => {
      seen.push({ text, ...extra });
      return { text: 'ok' };
    });
    for (const field of ['svc', 'tiny', 'agent']) await (await ask({ text: 'hi', [field]: 'helper' })).text();
    await (await ask({ audioUrl: 'https://cdn.example/a.wav' })).text();
    expect(seen).toEqual([
      { text: 'hi', agent: 'helper' },
      { text: 'hi', agent: 'helper' },
      { text: 'hi', agent: 'helper' },
      { text: '[transcribed audio]', audioUrl: 'https://cdn.example/a.wav' },
    ]);
  });

  it('answers {ok, text ≤2000, card?} as JSON without stream', async () => {
    emu.setAskScript(() => ({ text: 'y'.repeat(2500) }));
    const body = (await (await ask({ text: 'hello' })).json()) as { ok: boolean; text: string };
    expect(body.ok).toBe(true);
    expect(body.text).toHaveLength(2000);
  });

  it('hands the scripted agent the text; the default agent echoes it', async () => {
    const res = await ask({ text: 'what time is it', stream: '1' });
    expect(await res.text()).toContain('data: {"t":"You asked: what time "}');
  });

  it('refuses missing or oversized text with 400 and a bad device with the one 401', async () => {
    expect((await ask({ stream: '1' })).status).toBe(400);
    expect((await ask({ text: 'x'.repeat(4001) })).status).toBe(400);
    expect((await ask({ text: 'x'.repeat(4000) })).status).toBe(200);
    const wrong = await ask({ text: 'x', token: 'tind_wrong' });
    expect({ status: wrong.status, body: await wrong.json() }).toEqual({
      status: 401,
      body: { error: 'unauthorized' },
    });
  });

  it('passes 400, 401, 402, 404 and 422 through and turns anything else into 424', async () => {
    for (const status of [402, 422, 500]) {
      emu.setAskScript(() => ({ status, error: 'refused' }));
      expect((await ask({ text: 'x', stream: '1' })).status).toBe(status === 500 ? 424 : status);
    }
    emu.setAskScript(() => ({}));
    emu.setWorkerDown(true);
    const down = await ask({ text: 'x', stream: '1' });
    expect({ status: down.status, body: await down.json() }).toEqual({
      status: 424,
      body: { error: 'registry unreachable' },
    });
  });
});

describe('wordPieces', () => {
  it('keeps every character and groups about four words', () => {
    const text = '  Hello there, how are you today?  ';
    expect(wordPieces(text).join('')).toBe(text);
    expect(wordPieces(text)).toHaveLength(2);
    expect(wordPieces('')).toEqual([]);
  });
});
