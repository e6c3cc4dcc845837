/**
 * A platform that answers odd bodies (server/testing/mutating-fetch.ts): about a third of its JSON answers
 * and stream frames have one or two members swapped for values of other types. The client must
 * treat the platform as input from outside: no loop tick may throw, no turn may end without its
 * one closing event or with a false "unreachable", the status keeps its documented types, no
 * identity is stored that the platform did not issue, and once the platform is sane again the
 * client works with no restart. Seeded; a failure prints the newest changes made.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformChatEvent, PlatformStatus } from '../server/contract/platform.ts';
import { AskError } from './device-ask.ts';
import { repliesIn, startHarness, type Harness } from './test/client-harness.ts';
import { mutatingFetch, type MutatingFetch } from '../server/testing/mutating-fetch.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SEEDS = [1, 2, 3];
const RATE = 0.3;

function harness(h_: Harness | undefined): Harness {
  if (!h_) throw new Error('no harness');
  return h_;
}

/** The status keeps its documented types whatever the platform said. */
function expectSaneStatus(status: PlatformStatus, chaos: MutatingFetch): void {
  const why = `after: ${chaos.mutations.slice(-5).join(' | ')}`;
  expect(status.unread === null || (Number.isSafeInteger(status.unread) && status.unread >= 0), why).toBe(true);
  expect(Number.isSafeInteger(status.envelopesHandled), why).toBe(true);
  if (status.lastError !== null) {
    expect(typeof status.lastError.message, why).toBe('string');
    expect(status.lastError.message.length, why).toBeLessThanOrEqual(400);
  }
}

/** No tick threw: a throwing tick is logged at error level by the loop runner (loop.ts). */
function expectNoErrors(chaos: MutatingFetch): void {
  const errors = harness(h).logs.filter((l) => l.level === 'error');
  expect(errors, `after: ${chaos.mutations.slice(-5).join(' | ')}`).toEqual([]);
}

/** Moves the client's clock a second at a time until `done` holds, letting its HTTP settle between steps. */
async function stepUntil(done: () => boolean): Promise<void> {
  const { sched } = harness(h);
  await vi.waitFor(
    async () => {
      await sched.advance(1_000);
      expect(done()).toBe(true);
    },
    { timeout: 30_000, interval: 10 },
  );
}

async function queueInvoke(prompt: string): Promise<string> {
  const { owned, device } = harness(h);
  const out = await owned('POST', '/api/devices/relay', {
    toDevice: device.deviceId,
    payload: JSON.stringify({ type: 'invoke', prompt }),
  });
  expect(out.status).toBe(200);
  return out.body.id as string;
}

describe('a platform that answers odd bodies', () => {
  it.each(SEEDS)(
    'the device loops never throw, keep a sane status, and work again once it is sane (seed %i)',
    async (seed) => {
      const chaos = mutatingFetch({ seed, rate: RATE });
      h = await startHarness({ deps: { fetch: chaos.fetch } });
      await h.client.start();
      for (let round = 0; round < 40; round += 1) {
        await queueInvoke(`round ${round}`);
        if (round % 4 === 0)
          h.emu.pushToUser(h.owner.userId, { title: `note ${round}`, body: 'b', url: '/', tag: 't' });
        h.emu.setUnread(h.owner.userId, round);
        await h.sched.advance(5_000);
        expectSaneStatus(h.client.status(), chaos);
      }
      expect(chaos.counts().mutated).toBeGreaterThan(20);
      for (const n of h.notifications) {
        expect([typeof n.title, typeof n.body, typeof n.url, typeof n.tag]).toEqual([
          'string',
          'string',
          'string',
          'string',
        ]);
      }
      for (const turn of h.turns) expect(turn.prompt).toMatch(/^\[fleet depth=1 from owner\] round \d+$/);
      // At most one answer per envelope: a reply the platform took, but answered oddly, is not sent again.
      const answered = repliesIn(h.emu).map((r) => r.inReplyTo);
      expect(answered.length, `after: ${chaos.mutations.slice(-5).join(' | ')}`).toBe(new Set(answered).size);

      chaos.setRate(0);
      const id = await queueInvoke('after the storm');
      await stepUntil(() => repliesIn(harness(h).emu).some((r) => r.inReplyTo === id));
      expect(repliesIn(h.emu).find((r) => r.inReplyTo === id)?.payload).toEqual({
        result: 'done: [fleet depth=1 from owner] after the storm',
      });
      h.emu.setUnread(h.owner.userId, 7);
      await stepUntil(() => harness(h).client.status().unread === 7);
      expect(h.client.status()).toMatchObject({
        enrolled: true,
        online: true,
        deviceId: h.device.deviceId,
        halted: null,
      });
      expectNoErrors(chaos);
    },
  );

  it.each(SEEDS)('enrolling with a session stores only an identity the platform issued (seed %i)', async (seed) => {
    const chaos = mutatingFetch({ seed, rate: 0.5 });
    h = await startHarness({ enrolled: false, deps: { fetch: chaos.fetch } });
    await h.client.start();
    let enrolled = 0;
    for (let i = 0; i < 20; i += 1) {
      const out = await h.client.enrolWithSession({
        platformUrl: h.emu.url,
        sessionToken: h.owner.session,
        name: `robot ${i}`,
      });
      const status = h.client.status();
      expectSaneStatus(status, chaos);
      if (!out.ok) {
        expect(['bad_request', 'unauthorized', 'unavailable', 'storage', 'conflict']).toContain(out.failure.kind);
        expect(status.enrolled).toBe(false);
        continue;
      }
      enrolled += 1;
      const issued = h.emu.ctx.state.devices.get(status.deviceId ?? '');
      expect(issued?.name, `after: ${chaos.mutations.slice(-5).join(' | ')}`).toBe(`robot ${i}`);
      await h.client.forget();
      expect(h.client.status().enrolled).toBe(false);
    }
    expect(enrolled).toBeGreaterThan(0);
    expectNoErrors(chaos);
  });

  it.each(SEEDS)(
    'every chat turn ends with exactly one done or error, never a false "unreachable" (seed %i)',
    async (seed) => {
      // The frame that asks for the robot's tool is left whole: a changed one leaves the platform
      // waiting for a result that never comes, a turn the caller's own budget ends (the stream's
      // watchdog and cancel are in chat-stream.test.ts). Every other frame may change.
      const chaos = mutatingFetch({ seed, rate: 0, spareFrame: (data) => data.includes('"beforeToolCallEvent"') });
      h = await startHarness({ deps: { fetch: chaos.fetch } });
      await h.client.start();
      await h.client.disconnect();
      expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({ ok: true });
      h.emu.setChatScript(async (turn) => {
        turn.say('Hello', ' there', '0');
        turn.emit({ type: 'modelContentBlockDeltaEvent', reasoningDelta: { text: 'hm' } });
        turn.emit({
          type: 'afterToolCallEvent',
          toolResult: { name: 'web', toolUseId: 'srv_1', status: 'success', content: 'ok' },
        });
        turn.emit({ type: 'contextCompacted', dropped: 3 });
        await turn.callTool('look', { yaw: 10 });
        turn.say('Done.');
      });
      // A turn is a dozen frames: one in thirty changed spoils about a third of the turns.
      chaos.setRate(RATE, 1 / 30);
      const tools = [{ name: 'look', description: 'Turn the head.', inputSchema: { type: 'object' } }];
      const ends: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        const events: PlatformChatEvent[] = [];
        const stream = h.client.chat({
          messages: [{ role: 'user', content: `turn ${i}` }],
          tools,
          runTool: () => Promise.resolve({ isError: false, text: '{"ok":true}' }),
          signal: new AbortController().signal,
        });
        for await (const event of stream) events.push(event);
        const closing = events.filter((e) => e.type === 'done' || e.type === 'error');
        const why = `turn ${i}: ${JSON.stringify(events.slice(-2))} after: ${chaos.mutations.slice(-4).join(' | ')}`;
        expect(closing, why).toHaveLength(1);
        expect(events.at(-1), why).toBe(closing[0]);
        const last = closing[0] as PlatformChatEvent;
        if (last.type === 'error') {
          expect(last.error, why).not.toMatch(/unreachable/);
          ends.push('error');
        } else ends.push('done');
        for (const event of events) {
          if (event.type === 'text' || event.type === 'reasoning') expect(typeof event.text, why).toBe('string');
        }
      }
      expect(ends).toContain('done');
      expect(ends).toContain('error');
      chaos.setRate(0);
      const texts: string[] = [];
      for await (const event of h.client.chat({
        messages: [{ role: 'user', content: 'once more' }],
        tools,
        runTool: () => Promise.resolve({ isError: false, text: '{"ok":true}' }),
        signal: new AbortController().signal,
      })) {
        if (event.type === 'text') texts.push(event.text);
        else if (event.type === 'done' || event.type === 'error') texts.push(`<${event.type}>`);
      }
      expect(texts.join('')).toBe('Hello there0Done.<done>');
      expectNoErrors(chaos);
    },
  );

  it.each(SEEDS)(
    'use_device and the device ask answer a result or a refusal, never a throw (seed %i)',
    async (seed) => {
      const chaos = mutatingFetch({ seed, rate: 0 });
      h = await startHarness({ deps: { fetch: chaos.fetch } });
      await h.client.start();
      await h.client.disconnect();
      expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({ ok: true });
      h.emu.enrolDevice(h.owner.session, 'phone');
      chaos.setRate(RATE);
      const tool = h.client.useDeviceTool;
      for (let i = 0; i < 15; i += 1) {
        const listed = await h.sched.runUntil(tool.run({ action: 'list' }, {}));
        expect(typeof listed.ok).toBe('boolean');
        if (listed.ok) {
          for (const d of listed.devices as Array<Record<string, unknown>>) expect(typeof d.name).toBe('string');
        }
        const sent = await h.sched.runUntil(
          tool.run({ action: 'invoke', device: 'phone', prompt: `p${i}`, wait: false }, {}),
        );
        expect(typeof sent.ok).toBe('boolean');
        if (typeof sent.envelope_id === 'string') {
          const result = await h.sched.runUntil(tool.run({ action: 'result', envelope_id: sent.envelope_id }, {}));
          expect(typeof result.ok).toBe('boolean');
        }
        const asked: string[] = [];
        try {
          for await (const event of h.client.ask({ text: `q${i}`, signal: new AbortController().signal }))
            if (event.type === 'text') asked.push(event.text);
        } catch (error) {
          expect(error, `after: ${chaos.mutations.slice(-4).join(' | ')}`).toBeInstanceOf(AskError);
          expect((error as AskError).message).not.toMatch(/unreachable/);
        }
        for (const piece of asked) expect(typeof piece).toBe('string');
      }
      expect(chaos.counts().mutated).toBeGreaterThan(5);
      chaos.setRate(0);
      const listed = await h.sched.runUntil(tool.run({ action: 'list' }, {}));
      expect(listed).toMatchObject({ ok: true });
      const answer: string[] = [];
      for await (const event of h.client.ask({ text: 'hello robot', signal: new AbortController().signal }))
        if (event.type === 'text') answer.push(event.text);
      expect(answer.join('')).toBe('You asked: hello robot');
      expectNoErrors(chaos);
    },
  );
});
