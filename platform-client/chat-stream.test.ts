import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformChatEvent, PlatformChatInput } from '../server/contract/platform.ts';
import { NO_OWNER_SESSION } from './chat-stream.ts';
import { startHarness, type Harness } from './test/client-harness.ts';
import { oddBodyAt } from '../server/testing/mutating-fetch.ts';
import type { FetchLike } from './types.ts';
import { eventually } from '../server/testing/eventually.ts';

let h: Harness;
afterEach(() => h?.close());

/** A client enrolled with the owner's session stored and its loops stopped (no timers but the stream's). */
async function ready(withSession = true, fetch?: FetchLike) {
  h = await startHarness(fetch ? { deps: { fetch } } : {});
  await h.client.start();
  await h.client.disconnect();
  if (withSession) expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({ ok: true });
}

const tools = [{ name: 'look', description: 'Turn the head.', inputSchema: { type: 'object' } }];

function input(over: Partial<PlatformChatInput> = {}): PlatformChatInput {
  return {
    messages: [{ role: 'user', content: 'hello' }],
    tools,
    runTool: () => Promise.resolve({ isError: false, text: '{"ok":true}' }),
    signal: new AbortController().signal,
    ...over,
  };
}

async function collect(stream: AsyncIterable<PlatformChatEvent>): Promise<PlatformChatEvent[]> {
  const out: PlatformChatEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const texts = (events: PlatformChatEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('|');

describe('platform chat stream', () => {
  it('streams text (empty and "0" pieces kept) and reasoning, and ends with done', async () => {
    await ready();
    h.emu.setChatScript((turn) => {
      turn.emit({ type: 'modelContentBlockDeltaEvent', reasoningDelta: 'thinking…' });
      turn.say('Hi', '', '0');
      turn.emit({ type: 'modelMetadataEvent', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } });
    });
    const events = await collect(h.client.chat(input()));
    expect(events).toEqual([
      { type: 'reasoning', text: 'thinking…' },
      { type: 'text', text: 'Hi' },
      { type: 'text', text: '' },
      { type: 'text', text: '0' },
      { type: 'done', stopReason: 'end_turn' },
    ]);
    const turn = h.emu.chat.turns[0]!;
    expect(turn.headers['x-svc-session']).toBe(h.device.deviceId);
    expect(JSON.parse(turn.headers['x-svc-metadata']!)).toEqual({ device: h.device.deviceId, clientTools: ['look'] });
    expect(turn.messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('- look: Turn the head.'),
    });
  });

  it("runs the robot's tool on beforeToolCallEvent and returns it through tool-result, images via media", async () => {
    await ready();
    const png = Buffer.from('png-bytes');
    h.emu.setChatScript(async (turn) => {
      const payload = (await turn.callTool('look', { yaw: 30 })) as { images: Array<{ url: string }> };
      turn.say(`I see ${payload.images[0]!.url}`);
    });
    const calls: unknown[] = [];
    const events = await collect(
      h.client.chat(
        input({
          runTool: (call) => {
            calls.push(call);
            return Promise.resolve({
              isError: false,
              text: '{"ok":true}',
              images: [{ mediaType: 'image/png', base64: png.toString('base64') }],
            });
          },
        }),
      ),
    );
    expect(calls).toEqual([{ name: 'look', toolUseId: 'tooluse_1', input: { yaw: 30 } }]);
    const [result] = h.emu.chat.results;
    expect(result).toMatchObject({
      toolUseId: 'tooluse_1',
      payload: { status: 'success', content: [{ text: '{"ok":true}' }], images: [{ format: 'png' }] },
    });
    const url = (result!.payload as { images: Array<{ url: string }> }).images[0]!.url;
    expect(h.emu.ctx.media.get(url.split('/media/')[1]!)?.bytes).toEqual(png);
    // The robot's own tool is reported by whoever ran it, not as a platform tool.
    expect(events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end' || e.type === 'notice')).toEqual([]);
    expect(texts(events)).toBe(`I see ${url}`);
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });
  });

  it("says so when the platform answers the robot's tool itself as failed, as the running platform does", async () => {
    await ready();
    const refusal = "Tool 'look' not found in registry";
    h.emu.setChatScript(async (turn) => {
      await turn.callTool('look', { yaw: 20 }, { answeredHere: refusal });
      turn.say('Looked left.');
    });
    const calls: unknown[] = [];
    const events = await collect(
      h.client.chat(input({ runTool: (call) => (calls.push(call), Promise.resolve({ isError: false, text: 'ok' })) })),
    );
    // The robot still runs it and reports it; the owner is told what the platform's model was told.
    expect(calls).toEqual([{ name: 'look', toolUseId: 'tooluse_1', input: { yaw: 20 } }]);
    expect(h.emu.chat.results).toEqual([
      { toolUseId: 'tooluse_1', payload: expect.objectContaining({ status: 'success' }) },
    ]);
    expect(events.filter((e) => e.type !== 'text')).toEqual([
      {
        type: 'notice',
        text: `the platform answered the robot's look tool itself, as failed (${refusal}); its model is not given what the robot did`,
      },
      { type: 'done', stopReason: 'end_turn' },
    ]);
    expect(texts(events)).toBe('Looked left.');
  });

  it("runs the robot's tools one after another when the platform asks for two at once", async () => {
    await ready();
    h.emu.setChatScript(async (turn) => {
      const both = Promise.all([turn.callTool('look', { yaw: 10 }), turn.callTool('look', { yaw: 20 })]);
      turn.say('both asked');
      await both;
      turn.say('done');
    });
    const order: string[] = [];
    let releaseFirst!: () => void;
    const runTool = (call: { input: unknown }) => {
      const yaw = (call.input as { yaw: number }).yaw;
      order.push(`start ${yaw}`);
      const ran = yaw === 10 ? new Promise<void>((resolve) => (releaseFirst = resolve)) : Promise.resolve();
      return ran.then(() => (order.push(`end ${yaw}`), { isError: false, text: 'ok' }));
    };
    for await (const event of h.client.chat(input({ runTool }))) {
      // Both calls have been read by now: the second must wait for the first.
      if (event.type === 'text' && event.text === 'both asked') {
        expect(order).toEqual(['start 10']);
        releaseFirst();
      }
    }
    expect(order).toEqual(['start 10', 'end 10', 'start 20', 'end 20']);
    expect(h.emu.chat.results.map((r) => r.toolUseId)).toEqual(['tooluse_1', 'tooluse_2']);
  });

  it("runs the robot's tool once when the platform asks for the same call twice", async () => {
    await ready();
    h.emu.setChatScript(async (turn) => {
      const looked = turn.callTool('look', { yaw: 10 });
      // The same call again, as a replayed frame (its own seq, the same toolUseId).
      turn.emit({
        type: 'beforeToolCallEvent',
        toolCall: { name: 'look', toolUseId: 'tooluse_1', input: { yaw: 10 } },
      });
      await looked;
      turn.say('looked');
    });
    const calls: unknown[] = [];
    const runTool = (call: unknown) => (calls.push(call), Promise.resolve({ isError: false, text: 'ok' }));
    const events = await collect(h.client.chat(input({ runTool })));
    expect(calls).toEqual([{ name: 'look', toolUseId: 'tooluse_1', input: { yaw: 10 } }]);
    expect(texts(events)).toBe('looked');
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });
  });

  it('runs no robot tool still waiting its turn once the stream has ended', async () => {
    let answered = false;
    await ready(true, async (url, init) => {
      const response = await fetch(url, init);
      if (new URL(url).pathname !== '/api/chat/tool-result') return response;
      // Marked once the answer is read whole: the next queued tool would start right after it.
      const text = await response.text();
      answered = true;
      return new Response(text, { status: response.status, headers: response.headers });
    });
    h.emu.setChatScript((turn) => {
      void turn.callTool('look', { yaw: 10 }).catch(() => undefined);
      void turn.callTool('look', { yaw: 20 }).catch(() => undefined);
      throw new Error('model overloaded');
    });
    const started: number[] = [];
    let releaseFirst = (): void => undefined;
    const runTool = (call: { input: unknown }) => {
      const yaw = (call.input as { yaw: number }).yaw;
      started.push(yaw);
      const ran = yaw === 10 ? new Promise<void>((resolve) => (releaseFirst = resolve)) : Promise.resolve();
      return ran.then(() => ({ isError: false, text: 'ok' }));
    };
    const events = await collect(h.client.chat(input({ runTool })));
    expect(events.at(-1)).toEqual({ type: 'error', error: 'the platform answered: model overloaded' });
    await eventually(() => started.length > 0, { what: 'the first tool to start' });
    releaseFirst();
    await eventually(() => answered, { what: "the first tool's result to be answered" });
    expect(started).toEqual([10]);
  });

  it('goes on when the platform took a tool result but answered with an odd body', async () => {
    await ready(true, oddBodyAt('POST', '/api/chat/tool-result'));
    h.emu.setChatScript(async (turn) => {
      await turn.callTool('look', { yaw: 30 });
      turn.say('turned');
    });
    const events = await collect(h.client.chat(input()));
    expect(h.emu.chat.results).toHaveLength(1);
    expect(texts(events)).toBe('turned');
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });
  });

  it('sends a tool result over 8 KB through media as a URL, and reports platform tools as they run', async () => {
    await ready();
    h.emu.setChatScript(async (turn) => {
      turn.emit({ type: 'modelContentBlockStartEvent', toolStart: { name: 'recall', toolUseId: 'srv_1' } });
      turn.emit({
        type: 'afterToolCallEvent',
        toolResult: { toolUseId: 'srv_1', status: 'success', content: [{ text: 'm' }] },
      });
      await turn.callTool('look', {});
    });
    const long = 'x'.repeat(10_000);
    const events = await collect(
      h.client.chat(input({ runTool: () => Promise.resolve({ isError: false, text: long }) })),
    );
    expect(events.slice(0, 2)).toEqual([
      { type: 'tool_start', call: { name: 'recall', toolUseId: 'srv_1', input: undefined } },
      {
        type: 'tool_end',
        call: { name: 'recall', toolUseId: 'srv_1', input: undefined },
        outcome: { result: [{ text: 'm' }] },
      },
    ]);
    const sent = (h.emu.chat.results[0]!.payload as { content: Array<{ text: string }> }).content[0]!.text;
    expect(sent.length).toBeLessThan(2000);
    const url = /is at (\S+)\]$/.exec(sent)![1]!;
    expect(await (await fetch(url)).text()).toBe(long);
  });

  it('ends the turn, naming the fault, on a frame that is JSON but not an object', async () => {
    for (const odd of ['null', '7', '[1,2]', '"text"', 'not json']) {
      // The platform's answer, with its second frame's data replaced.
      const fetchOdd: FetchLike = async (url, init) => {
        if (new URL(url).pathname !== '/api/chat') return fetch(url, init);
        await (await fetch(url, init)).arrayBuffer();
        const body = `data: {"type":"modelContentBlockDeltaEvent","textDelta":"a","seq":0}\n\ndata: ${odd}\n\ndata: [DONE]\n\n`;
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      };
      await ready(true, fetchOdd);
      const events = await collect(h.client.chat(input()));
      expect(events).toEqual([
        { type: 'text', text: 'a' },
        { type: 'error', error: 'the platform sent a chat frame that is not a JSON object' },
      ]);
      await h.close();
    }
  });

  it('ends the turn on a frame longer than 1 MiB, without reading on', async () => {
    const piece = `data: ${'y'.repeat(64 * 1024)}\n`;
    const fetchLong: FetchLike = async (url, init) => {
      if (new URL(url).pathname !== '/api/chat') return fetch(url, init);
      await (await fetch(url, init)).arrayBuffer();
      // 4 MiB of data lines and no blank line: one frame that never ends.
      const body = `data: {"type":"modelContentBlockDeltaEvent","textDelta":"a","seq":0}\n\n${piece.repeat(64)}`;
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    await ready(true, fetchLong);
    expect(await collect(h.client.chat(input()))).toEqual([
      { type: 'text', text: 'a' },
      { type: 'error', error: 'the platform sent a frame longer than 1 MiB' },
    ]);
  });

  it('aborts the turn on a gap in seq', async () => {
    await ready();
    h.emu.setChatScript((turn) => {
      turn.say('a');
      turn.dropFrame();
      turn.say('b');
    });
    const events = await collect(h.client.chat(input()));
    expect(texts(events)).toBe('a');
    expect(events.at(-1)).toEqual({
      type: 'error',
      error: expect.stringMatching(/lost frames \(seq 1 was followed by 3\)/),
    });
  });

  it('waits past the 45 s watchdog for a robot tool still running when the stream ends, and ends done', async () => {
    await ready();
    h.emu.setChatScript((turn) => {
      // The platform stops waiting for the robot's tool and ends the turn ([DONE]) meanwhile.
      void turn.callTool('look', { yaw: 10 }).catch(() => undefined);
      turn.say('going on without it');
    });
    let release = (): void => undefined;
    let running = false;
    const runTool = () => {
      running = true;
      return new Promise<void>((resolve) => (release = resolve)).then(() => ({ isError: false, text: 'ok' }));
    };
    const done = collect(h.client.chat(input({ runTool })));
    await eventually(() => running, { what: 'the robot tool to start' });
    // The stream has ended (the emulator's keep-alive timer is gone): nothing more comes, by right.
    await eventually(() => !h.sched.dueIn().includes(15_000), { what: 'the stream to end' });
    await h.sched.advance(60_000);
    release();
    const events = await done;
    expect(texts(events)).toBe('going on without it');
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'end_turn' });
  });

  it('stays open while : ping arrives, and aborts after 45 s without a ping or frame', async () => {
    await ready();
    let turnGone!: Promise<void>;
    let stopPings!: () => void;
    h.emu.setChatScript((turn) => {
      turn.say('working');
      turnGone = turn.gone;
      stopPings = turn.stopPings;
      return turn.gone;
    });
    const done = collect(h.client.chat(input()));
    // Emulator ping in 15 s; client watchdog 45 s after the last byte.
    await vi.waitFor(() => expect(h.sched.dueIn()).toEqual([15_000, 45_000]));
    await h.sched.advance(15_000);
    // The ping was read: the watchdog starts again from now.
    await vi.waitFor(() => expect(h.sched.dueIn()).toEqual([15_000, 45_000]));
    stopPings();
    await h.sched.advance(45_000);
    const events = await done;
    expect(events.at(-1)).toEqual({ type: 'error', error: 'the platform sent no frame and no keep-alive for 45 s' });
    await turnGone;
  });

  it('ends with the platform error on an error frame, preflight or mid-stream, and on a cut-off body', async () => {
    await ready();
    h.emu.chat.preflightError = 'no model key';
    expect(await collect(h.client.chat(input()))).toEqual([
      { type: 'error', error: 'the platform answered: no model key' },
    ]);
    h.emu.chat.preflightError = null;
    h.emu.setChatScript((turn) => {
      turn.say('part');
      throw new Error('model overloaded');
    });
    expect((await collect(h.client.chat(input()))).at(-1)).toEqual({
      type: 'error',
      error: 'the platform answered: model overloaded',
    });
    // The platform's words reach the log bounded, as every platform error string does.
    h.emu.chat.preflightError = 'e'.repeat(5000);
    expect(await collect(h.client.chat(input()))).toEqual([
      { type: 'error', error: `the platform answered: ${'e'.repeat(200)}…` },
    ]);
  });

  it('sends at most 31 messages: the system message and the newest 30, starting at a user message', async () => {
    await ready();
    const messages = Array.from({ length: 41 }, (_, i) => ({
      role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
      content: `m${i}`,
    }));
    await collect(h.client.chat(input({ messages: [{ role: 'system', content: 'be brief' }, ...messages] })));
    const turn = h.emu.chat.turns[0]!;
    expect(turn.sent).toBeLessThanOrEqual(31);
    expect(turn.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/^be brief/) });
    expect(turn.messages[1]).toEqual({ role: 'user', content: 'm12' });
    expect(turn.messages.at(-1)).toEqual({ role: 'user', content: 'm40' });
  });

  it('says what is missing without an owner session, and what the platform said on a refusal', async () => {
    await ready(false);
    expect(await collect(h.client.chat(input()))).toEqual([{ type: 'error', error: NO_OWNER_SESSION }]);
    expect(h.emu.chat.turns).toHaveLength(0);
    await h.client.setOwnerSession(h.owner.session);
    h.emu.setWorkerDown('hang');
    expect(await collect(h.client.chat(input()))).toEqual([
      { type: 'error', error: expect.stringMatching(/^platform answered 503/) },
    ]);
  });
});
