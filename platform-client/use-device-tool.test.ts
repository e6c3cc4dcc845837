import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlatformHttp, httpFailure } from './platform-http.ts';
import { classifyRelaySend, classifySendFailure } from './relay-send.ts';
import { createSessionClient } from './session-client.ts';
import { startHarness, type Harness } from './test/client-harness.ts';
import { createUseDeviceTool, type ToolDefinition } from './use-device-tool.ts';
import type { SessionClient } from './session-client.ts';

let h: Harness;
afterEach(() => h?.close());

/** A harness whose client has the owner's command-line token, plus a second device (a phone). */
async function withPeer() {
  h = await startHarness();
  // Enrolled but with the loops stopped, so the only timers are the tool's own.
  await h.client.start();
  await h.client.disconnect();
  expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({
    ok: true,
    value: { ownerSession: 'stored' },
  });
  const phone = h.emu.enrolDevice(h.owner.session, 'phone');
  return { tool: h.client.useDeviceTool, phone };
}

/** The phone's side: claim its envelopes and answer each with `text`. */
async function phoneAnswers(phone: { deviceId: string; token: string }, text: string): Promise<string[]> {
  const call = (method: string, body: unknown) =>
    fetch(`${h.emu.url}/api/devices/relay`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const claimed = (await (await call('PUT', { ...phone, max: 5 })).json()) as { messages: Array<{ id: string }> };
  for (const m of claimed.messages)
    await call('PATCH', { ...phone, inReplyTo: m.id, payload: JSON.stringify({ result: text }) });
  return claimed.messages.map((m) => m.id);
}

const run = (tool: ToolDefinition, input: unknown, ctx = {}) => h.sched.runUntil(tool.run(input, ctx));

describe('use_device tool', () => {
  it('is a plain tool definition with a JSON schema', async () => {
    const { tool } = await withPeer();
    expect(tool.name).toBe('use_device');
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['action'],
      properties: { action: { enum: ['list', 'invoke', 'result'] } },
    });
  });

  it("lists the owner's devices and marks itself", async () => {
    const { tool } = await withPeer();
    const out = await run(tool, { action: 'list' });
    expect(out.ok).toBe(true);
    const devices = out.devices as Array<{ name: string; self: boolean }>;
    expect(devices.map((d) => [d.name, d.self]).sort()).toEqual([
      ['cockpit-robot', true],
      ['phone', false],
    ]);
  });

  it('returns a pending ticket after 45 s without a reply, and redeems it once the late reply lands', async () => {
    const { tool, phone } = await withPeer();
    const started = h.sched.now();
    const out = await run(tool, { action: 'invoke', device: 'phone', prompt: 'take a photo' });
    expect(out).toMatchObject({ ok: true, pending: true, envelope_id: expect.any(String) });
    expect(h.sched.now() - started).toBe(45_000);
    const recvs = h.emu.requests.filter((r) => r.method === 'GET' && r.path === '/api/devices/relay');
    expect(recvs).toHaveLength(15);

    expect(await run(tool, { action: 'result', envelope_id: out.envelope_id })).toMatchObject({
      ok: true,
      pending: true,
    });
    await h.sched.advance(60_000);
    expect(await phoneAnswers(phone, 'photo taken')).toEqual([out.envelope_id]);
    expect(h.emu.ctx.state.events.map((e) => e.kind)).toContain('device_result');
    const redeemed = await run(tool, { action: 'result', envelope_id: out.envelope_id });
    expect(redeemed).toEqual({ ok: true, envelope_id: out.envelope_id, reply: { result: 'photo taken' } });
  });

  it('returns the reply when it arrives within the wait', async () => {
    const { tool, phone } = await withPeer();
    const started = h.sched.now();
    const pending = tool.run({ action: 'invoke', device: phone.deviceId, prompt: 'battery?' }, {});
    // Once the envelope is queued and the tool sleeps, the phone answers 7 s later.
    await vi.waitFor(() => expect(h.sched.pending()).toBe(1));
    expect(h.emu.ctx.relay.rows).toHaveLength(1);
    h.sched.after(7_000, async () => void (await phoneAnswers(phone, 'battery 80%')));
    const out = await h.sched.runUntil(pending);
    expect(out).toMatchObject({ ok: true, reply: { result: 'battery 80%' } });
    expect(h.sched.now() - started).toBeLessThan(15_000);
  });

  it('waits at most 15 polls for the reply when the wall clock is set back during the wait', async () => {
    let now = 1_800_000_000_000;
    let reads = 0;
    const session = {
      listDevices: async () => ({
        ok: true as const,
        value: [
          {
            id: 'phone-1',
            name: 'phone',
            kind: 'daemon',
            platform: null,
            online: true,
            lastSeen: null,
            capabilities: [],
          },
        ],
      }),
      relaySend: async () => ({ queued: true as const, kind: 'queued' as const, id: 'env-1' }),
      async relayReply() {
        reads += 1;
        // Set back an hour at the third read, as an NTP correction does.
        if (reads === 3) now -= 3_600_000;
        return { ok: true as const, value: null };
      },
    } as unknown as SessionClient;
    const tool = createUseDeviceTool({
      session: async () => session,
      selfDeviceId: () => 'robot-1',
      // Each wait passes at once and moves the clock by its length.
      scheduler: { now: () => now, after: (ms, fn) => (queueMicrotask(() => ((now += ms), fn())), () => undefined) },
    });
    expect(await tool.run({ action: 'invoke', device: 'phone', prompt: 'ring' }, {})).toMatchObject({
      ok: true,
      pending: true,
      envelope_id: 'env-1',
    });
    expect(reads).toBe(15);
  });

  it('says the session was refused when a 401 comes during the wait, instead of "pending"', async () => {
    const { tool, phone } = await withPeer();
    const pending = tool.run({ action: 'invoke', device: phone.deviceId, prompt: 'battery?' }, {});
    await vi.waitFor(() => expect(h.sched.pending()).toBe(1));
    // The owner signs the token out while the tool waits.
    h.emu.ctx.state.sessions.delete(h.owner.session);
    const out = await h.sched.runUntil(pending);
    expect(out).toMatchObject({ ok: false, kind: 'session_refused', envelope_id: expect.any(String) });
    expect(out.pending).toBeUndefined();
    expect(h.emu.requests.filter((r) => r.method === 'GET' && r.path === '/api/devices/relay')).toHaveLength(1);
  });

  it('names this robot in the invoke envelope, so the receiver marks it "from cockpit-robot"', async () => {
    const { tool } = await withPeer();
    await run(tool, { action: 'invoke', device: 'phone', prompt: 'ping', wait: false });
    expect(JSON.parse(h.emu.ctx.relay.rows[0]!.payload)).toEqual({
      type: 'invoke',
      prompt: 'ping',
      from: 'cockpit-robot',
    });
  });

  it('runs a turn on an endpoint device through endpoint/chat, and passes its failure flag on', async () => {
    const { tool } = await withPeer();
    h.emu.enrolDevice(h.owner.session, 'reachy', { kind: 'endpoint', url: 'https://reachy.example.com', secret: 's3' });
    expect(await run(tool, { action: 'invoke', device: 'reachy', prompt: 'wave' })).toEqual({
      device: 'reachy',
      ok: true,
      result: 'endpoint heard: wave',
    });
    h.emu.setEndpointScript(() => ({ failure: 'unreachable' }));
    expect(await run(tool, { action: 'invoke', device: 'reachy', prompt: 'wave' })).toMatchObject({
      ok: false,
      unreachable: true,
    });
    expect(h.emu.ctx.relay.rows).toHaveLength(0);
  });

  it('redeems a task_* ticket that a device deposited through task-result', async () => {
    const { tool, phone } = await withPeer();
    const res = await fetch(`${h.emu.url}/api/devices/task-result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...phone, taskId: 'scan-1', summary: 'scan done', result: '3 rooms' }),
    });
    const { ticket } = (await res.json()) as { ticket: string };
    expect(ticket).toMatch(/^task_[0-9a-f]{8}_scan-1$/);
    expect(await run(tool, { action: 'result', envelope_id: ticket })).toEqual({
      ok: true,
      envelope_id: ticket,
      reply: { taskId: 'scan-1', summary: 'scan done', result: '3 rooms' },
    });
  });

  it('returns the ticket at once with wait: false', async () => {
    const { tool } = await withPeer();
    const out = await run(tool, { action: 'invoke', device: 'phone', prompt: 'ping', wait: false });
    expect(out).toMatchObject({ ok: true, pending: true });
  });

  it('never targets itself, never runs in a fleet turn, and names unknown devices', async () => {
    const { tool } = await withPeer();
    expect(await run(tool, { action: 'invoke', device: 'cockpit-robot', prompt: 'x' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/itself/),
    });
    expect(await run(tool, { action: 'list' }, { fleet: true })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/fleet/),
    });
    expect(await run(tool, { action: 'invoke', device: 'toaster', prompt: 'x' })).toMatchObject({
      ok: false,
      kind: 'no_such_device',
    });
    expect(h.emu.ctx.relay.rows).toHaveLength(0);
  });

  it('says so when no owner session is configured', async () => {
    h = await startHarness();
    await h.client.start();
    expect(await h.client.useDeviceTool.run({ action: 'list' }, {})).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no owner session/),
    });
  });
});

describe('relay-send outcome kinds', () => {
  async function session(token?: string) {
    h = await startHarness();
    const http = createPlatformHttp({ baseUrl: () => h.emu.url });
    return createSessionClient(http, token ?? h.owner.session);
  }

  it('queued', async () => {
    const s = await session();
    expect(await s.relaySend(h.device.deviceId, { type: 'invoke', prompt: 'x' })).toEqual({
      queued: true,
      kind: 'queued',
      id: expect.any(String),
    });
  });

  it('no_such_device, too_big and bad_request are refusals before the insert', async () => {
    const s = await session();
    expect(await s.relaySend('nope', { type: 'invoke', prompt: 'x' })).toEqual({
      queued: false,
      kind: 'no_such_device',
      error: 'platform answered 404: device not found',
      delivered: 'no',
      retryable: false,
    });
    expect(await s.relaySend(h.device.deviceId, { type: 'invoke', prompt: 'x'.repeat(9000) })).toMatchObject({
      kind: 'too_big',
      delivered: 'no',
      retryable: false,
    });
    expect(await s.relaySend('', { type: 'invoke' })).toMatchObject({
      kind: 'bad_request',
      delivered: 'no',
      error: expect.stringContaining('userId and toDevice required'),
    });
  });

  it("a refused owner session is session_refused, not server_key (the platform's own key)", async () => {
    expect(await (await session('bad-token')).relaySend(h.device.deviceId, {})).toMatchObject({
      kind: 'session_refused',
      delivered: 'no',
      retryable: false,
    });
    expect(classifySendFailure(httpFailure(401, { error: 'unauthorized' }))).toMatchObject({
      kind: 'server_key',
      delivered: 'no',
    });
  });

  it('bad_request is a 400 only; other 4xx (429 included) are not retryable and of unknown delivery', () => {
    expect(classifySendFailure(httpFailure(400, { error: 'x' }))).toMatchObject({
      kind: 'bad_request',
      delivered: 'no',
    });
    for (const status of [403, 422, 429])
      expect(classifySendFailure(httpFailure(status, { error: 'x' }))).toMatchObject({
        kind: 'relay_fault',
        delivered: 'unknown',
        retryable: false,
      });
    expect(httpFailure(429, { error: 'slow down' })).toMatchObject({ kind: 'rate_limited', retryable: false });
  });

  it('no_envelope for a 2xx without an id: delivery unknown, not retried', () => {
    expect(classifyRelaySend({ ok: true, value: { status: 200, body: { ok: true } } })).toEqual({
      queued: false,
      kind: 'no_envelope',
      error: 'the platform answered without an envelope id',
      delivered: 'unknown',
      retryable: false,
    });
  });

  it('checks the enrolment limits before asking the platform', async () => {
    const s = await session();
    const before = h.emu.requests.length;
    for (const input of [
      { name: 'x'.repeat(65) },
      { name: ' ' },
      { name: 'robot', platform: 'p'.repeat(33) },
      { name: 'robot', capabilities: Array.from({ length: 33 }, (_, i) => `c${i}`) },
      { name: 'robot', capabilities: ['c'.repeat(33)] },
    ])
      expect(await s.createDevice(input)).toMatchObject({ ok: false, failure: { kind: 'bad_request' } });
    expect(h.emu.requests.length).toBe(before);
    expect(
      await s.createDevice({ name: 'x'.repeat(64), platform: 'p'.repeat(32), capabilities: ['c'.repeat(32)] }),
    ).toMatchObject({ ok: true });
  });

  it('relay_fault on a worker fault, unreachable when the request throws', async () => {
    await h.close();
    const s = await session();
    h.emu.setWorkerDown(true);
    expect(await s.relaySend(h.device.deviceId, {})).toMatchObject({
      kind: 'relay_fault',
      delivered: 'unknown',
      retryable: true,
    });
    h.emu.setOutage(true);
    expect(await s.relaySend(h.device.deviceId, {})).toMatchObject({
      kind: 'unreachable',
      delivered: 'unknown',
      retryable: true,
    });
  });
});
