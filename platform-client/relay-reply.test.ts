/**
 * The PATCH reply's edges: a retry after an answer that was lost on the way back (the platform may
 * then hold the same reply twice), and `envelope not found`, which is final.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { repliesIn, startHarness, type Harness } from './test/client-harness.ts';
import type { FetchLike } from './types.ts';

let h: Harness;
afterEach(() => h?.close());

async function queue(prompt: string): Promise<string> {
  const out = await h.owned('POST', '/api/devices/relay', {
    toDevice: h.device.deviceId,
    payload: JSON.stringify({ type: 'invoke', prompt }),
  });
  return out.body.id as string;
}

describe('relay reply (PATCH)', () => {
  it('retries a reply whose answer was lost; the platform may keep both copies, and the owner reads one', async () => {
    let lost = 0;
    // The first PATCH reaches the platform, but its answer never comes back (a timeout).
    const flaky: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (init?.method === 'PATCH' && lost === 0) {
        lost += 1;
        throw new DOMException('the answer was lost', 'TimeoutError');
      }
      return response;
    };
    h = await startHarness({ deps: { fetch: flaky } });
    const id = await queue('battery?');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(repliesIn(h.emu)).toHaveLength(1));
    // The retry waits 2 s on the client's clock, then sends the same reply again.
    await h.sched.advance(2_000);
    await vi.waitFor(() => expect(repliesIn(h.emu)).toHaveLength(2));
    const [first, second] = repliesIn(h.emu);
    expect(second?.raw).toBe(first?.raw);
    const read = await h.owned('GET', `/api/devices/relay?inReplyTo=${id}`);
    expect(read.body.reply).toMatchObject({ payload: first?.raw });
    await vi.waitFor(() => expect(h.client.status().envelopesHandled).toBe(1));
  });

  it('does not retry `envelope not found`: the reply is final, logged and counted', async () => {
    h = await startHarness({
      runner: async () => {
        // The owner's side lost the request row while the turn ran (another owner's, or swept).
        h.emu.ctx.relay.rows = h.emu.ctx.relay.rows.filter((r) => r.in_reply_to !== null);
        return { text: 'done' };
      },
    });
    await queue('x');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(h.client.status().envelopesHandled).toBe(1));
    await h.sched.advance(10_000);
    const patches = h.emu.requests.filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(h.client.status().lastError).toMatchObject({ message: expect.stringMatching(/envelope not found/) });
    expect(h.logs).toContainEqual({ level: 'warn', msg: 'relay reply was not delivered' });
  });

  it("treats `envelope not found` as final under the proxy's 424 too, as the platform itself answers it", async () => {
    // The platform's proxy turns the worker's 404 into a 424 with the same error string.
    const asProxy: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (init?.method !== 'PATCH' || response.status !== 404) return response;
      return new Response(await response.text(), { status: 424, headers: { 'content-type': 'application/json' } });
    };
    h = await startHarness({
      deps: { fetch: asProxy },
      runner: async () => {
        h.emu.ctx.relay.rows = h.emu.ctx.relay.rows.filter((r) => r.in_reply_to !== null);
        return { text: 'done' };
      },
    });
    await queue('x');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(h.client.status().envelopesHandled).toBe(1));
    await h.sched.advance(10_000);
    expect(h.emu.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });
});
