/**
 * The emulator checked against the spec's own statements (docs/platform.md, "Devices",
 * "Errors", "Limits"; docs/platform.md, "Devices"), so the client tests rest on a faithful double.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPlatformEmulator, type PlatformEmulator } from './platform-emulator.ts';

let clock = 1_700_000_000_000;
let emu: PlatformEmulator;
let owner: { userId: string; session: string };
let dev: { deviceId: string; token: string };

async function call(
  method: string,
  path: string,
  body?: unknown,
  session?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) headers.authorization = `Bearer ${session}`;
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const creds = () => ({ deviceId: dev.deviceId, token: dev.token });

beforeEach(async () => {
  clock = 1_700_000_000_000;
  emu = await startPlatformEmulator({ now: () => clock });
  owner = emu.addUser('owner');
  dev = emu.enrolDevice(owner.session, 'robot');
});

afterEach(() => emu.close());

describe('registry and auth', () => {
  it('enrols with {ok, device_id, device_token}; the token starts with tind_', async () => {
    const out = await call(
      'POST',
      '/api/devices',
      { name: 'second', kind: 'daemon', capabilities: ['say'] },
      owner.session,
    );
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({
      ok: true,
      device_id: expect.any(String),
      device_token: expect.stringMatching(/^tind_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('gives 401 {error: login required} without a session', async () => {
    expect(await call('GET', '/api/devices')).toEqual({ status: 401, body: { error: 'login required' } });
  });

  it('gives the same 401 unauthorized for a wrong token, an unknown id and a revoked device', async () => {
    const wrong = await call('POST', '/api/devices/heartbeat', { deviceId: dev.deviceId, token: 'tind_wrong' });
    const unknown = await call('POST', '/api/devices/heartbeat', { deviceId: 'nope', token: dev.token });
    await call('DELETE', '/api/devices', { deviceId: dev.deviceId }, owner.session);
    const revoked = await call('POST', '/api/devices/heartbeat', creds());
    for (const out of [wrong, unknown, revoked]) expect(out).toEqual({ status: 401, body: { error: 'unauthorized' } });
  });

  it('rotates the token on adopt; the old one stops at once', async () => {
    const out = await call('POST', '/api/devices/adopt', { deviceId: dev.deviceId }, owner.session);
    expect((await call('POST', '/api/devices/heartbeat', creds())).status).toBe(401);
    expect(
      (await call('POST', '/api/devices/heartbeat', { deviceId: dev.deviceId, token: out.body.device_token })).status,
    ).toBe(200);
  });

  it('enforces the enrolment limits: name 64, 20 devices', async () => {
    expect((await call('POST', '/api/devices', { name: 'x'.repeat(65) }, owner.session)).status).toBe(400);
    for (let i = 0; i < 19; i += 1) emu.enrolDevice(owner.session, `d${i}`);
    expect(await call('POST', '/api/devices', { name: 'one too many' }, owner.session)).toMatchObject({ status: 400 });
  });
});

describe('heartbeat and presence', () => {
  it('answers {ok}, adds unread only when wantUnread, and keeps presence 60 s', async () => {
    emu.setUnread(owner.userId, 4);
    expect((await call('POST', '/api/devices/heartbeat', creds())).body).toEqual({ ok: true });
    expect((await call('POST', '/api/devices/heartbeat', { ...creds(), wantUnread: '1' })).body).toEqual({
      ok: true,
      unread: 4,
    });
    const online = async () =>
      ((await call('GET', '/api/devices', undefined, owner.session)).body.devices as Array<{ online: boolean }>)[0]
        ?.online;
    clock += 59_999;
    expect(await online()).toBe(true);
    clock += 1;
    expect(await online()).toBe(false);
  });

  it('leaves unread out when the worker did not compute it', async () => {
    emu.setUnread(owner.userId, null);
    expect((await call('POST', '/api/devices/heartbeat', { ...creds(), wantUnread: '1' })).body).toEqual({ ok: true });
  });

  it('stores a private http lanUrl as its origin and silently drops anything else', async () => {
    const lan = async () =>
      ((await call('GET', '/api/devices', undefined, owner.session)).body.devices as Array<{ lan_url: string }>)[0]
        ?.lan_url;
    expect(
      (await call('POST', '/api/devices/heartbeat', { ...creds(), lanUrl: 'http://192.168.1.9:8097/x' })).status,
    ).toBe(200);
    expect(await lan()).toBe('http://192.168.1.9:8097');
    expect((await call('POST', '/api/devices/heartbeat', { ...creds(), lanUrl: 'http://8.8.8.8' })).status).toBe(200);
    expect(await lan()).toBe('http://192.168.1.9:8097');
  });

  it('replaces capabilities when present and keeps them when absent', async () => {
    await call('POST', '/api/devices/heartbeat', { ...creds(), capabilities: ['say', 'look'] });
    await call('POST', '/api/devices/heartbeat', creds());
    const list = await call('GET', '/api/devices', undefined, owner.session);
    expect((list.body.devices as Array<{ capabilities: string[] }>)[0]?.capabilities).toEqual(['say', 'look']);
  });
});

describe('relay', () => {
  const sendTo = (toDevice: string, payload: unknown) =>
    call('POST', '/api/devices/relay', { toDevice, payload }, owner.session);

  it('claims at most once, honours max and never hands a row out twice', async () => {
    for (let i = 0; i < 12; i += 1) await sendTo(dev.deviceId, JSON.stringify({ type: 'invoke', prompt: `p${i}` }));
    const [a, b] = await Promise.all([
      call('PUT', '/api/devices/relay', { ...creds(), max: 5 }),
      call('PUT', '/api/devices/relay', { ...creds(), max: 5 }),
    ]);
    const ids = [...(a.body.messages as Array<{ id: string }>), ...(b.body.messages as Array<{ id: string }>)].map(
      (m) => m.id,
    );
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    const rest = await call('PUT', '/api/devices/relay', creds());
    expect(rest.body.messages).toHaveLength(2);
  });

  it('clamps max to 1..50 and defaults it to 10', async () => {
    for (let i = 0; i < 12; i += 1) await sendTo(dev.deviceId, '{"type":"notify"}');
    expect((await call('PUT', '/api/devices/relay', { ...creds(), max: 0 })).body.messages).toHaveLength(1);
    expect((await call('PUT', '/api/devices/relay', creds())).body.messages).toHaveLength(10);
  });

  it('keeps payloads as JSON strings, stringifying objects', async () => {
    await sendTo(dev.deviceId, { type: 'invoke', prompt: 'hi' });
    const out = await call('PUT', '/api/devices/relay', creds());
    expect((out.body.messages as Array<{ payload: string }>)[0]?.payload).toBe('{"type":"invoke","prompt":"hi"}');
  });

  it('speaks the exact worker error strings', async () => {
    expect(await sendTo('', '{}')).toEqual({ status: 400, body: { error: 'userId and toDevice required' } });
    expect(await sendTo(dev.deviceId, 'not json')).toEqual({
      status: 400,
      body: { error: 'payload must be valid JSON ≤8KB' },
    });
    expect(await sendTo(dev.deviceId, JSON.stringify({ x: 'y'.repeat(8200) }))).toEqual({
      status: 400,
      body: { error: 'payload must be valid JSON ≤8KB' },
    });
    expect(await sendTo('unknown-device', '{}')).toEqual({ status: 404, body: { error: 'device not found' } });
  });

  it('accepts a payload of exactly 8192 bytes and refuses 8193', async () => {
    const fill = (n: number) => JSON.stringify({ r: 'x'.repeat(n - 8) });
    expect(fill(8192)).toHaveLength(8192);
    expect((await sendTo(dev.deviceId, fill(8192))).status).toBe(200);
    expect((await sendTo(dev.deviceId, fill(8193))).status).toBe(400);
  });

  it('reads the limit in both readings: 8192 characters of two-byte text pass, 8193 do not', async () => {
    // "at most 8192 bytes" ("Limits") and "8192 characters" (docs/platform.md, "Devices") disagree
    // beyond ASCII; the emulator accepts both readings, so a client cannot lean on either.
    const fill = (n: number) => JSON.stringify({ r: 'é'.repeat(n - 8) });
    expect(Array.from(fill(8192))).toHaveLength(8192);
    expect(Buffer.byteLength(fill(8192))).toBeGreaterThan(8192);
    expect((await sendTo(dev.deviceId, fill(8192))).status).toBe(200);
    expect(await sendTo(dev.deviceId, fill(8193))).toEqual({
      status: 400,
      body: { error: 'payload must be valid JSON ≤8KB' },
    });
  });

  it('returns the reply by inReplyTo and reports a late one as device_result', async () => {
    const sent = await sendTo(dev.deviceId, '{"type":"invoke","prompt":"x"}');
    const id = sent.body.id as string;
    expect((await call('GET', `/api/devices/relay?inReplyTo=${id}`, undefined, owner.session)).body).toEqual({
      ok: true,
      reply: null,
    });
    await call('PUT', '/api/devices/relay', creds());
    clock += 46_000;
    expect(
      await call('PATCH', '/api/devices/relay', { ...creds(), inReplyTo: id, payload: '{"result":"done"}' }),
    ).toEqual({ status: 200, body: { ok: true } });
    const reply = await call('GET', `/api/devices/relay?inReplyTo=${id}`, undefined, owner.session);
    expect((reply.body.reply as { payload: string }).payload).toBe('{"result":"done"}');
    expect(emu.ctx.state.events.map((e) => e.kind)).toContain('device_result');
  });

  it("refuses a reply to another owner's envelope with envelope not found", async () => {
    expect(await call('PATCH', '/api/devices/relay', { ...creds(), inReplyTo: 'nope', payload: '{}' })).toEqual({
      status: 404,
      body: { error: 'envelope not found' },
    });
  });

  it('drops undelivered envelopes after 1 h and reports missed invokes', async () => {
    await sendTo(dev.deviceId, '{"type":"invoke","prompt":"late"}');
    clock += 3_600_001;
    expect((await call('PUT', '/api/devices/relay', creds())).body.messages).toEqual([]);
    expect(emu.ctx.state.events.map((e) => e.kind)).toContain('device_missed');
  });

  it('mirrors a push as a notify envelope to devices that beat within 120 s', async () => {
    await call('POST', '/api/devices/heartbeat', creds());
    clock += 100_000;
    expect(emu.pushToUser(owner.userId, { title: 'Hi', body: 'there' })).toEqual({ sent: 0, pruned: 0, relayed: 1 });
    clock += 30_000;
    expect(emu.pushToUser(owner.userId, { title: 'Again' }).relayed).toBe(0);
  });
});

describe('other device routes', () => {
  it('stores a task result under task_<8 hex>_<taskId>, redeemable by inReplyTo', async () => {
    const out = await call('POST', '/api/devices/task-result', {
      ...creds(),
      taskId: 'job-1',
      summary: 'done',
      result: 'all good',
    });
    const ticket = `task_${dev.deviceId.replace(/-/g, '').slice(0, 8)}_job-1`;
    expect(out.body).toEqual({ ok: true, ticket });
    const reply = await call('GET', `/api/devices/relay?inReplyTo=${ticket}`, undefined, owner.session);
    expect(JSON.parse((reply.body.reply as { payload: string }).payload)).toMatchObject({ result: 'all good' });
    expect((await call('POST', '/api/devices/task-result', { ...creds(), taskId: 'bad id' })).status).toBe(400);
    expect(
      (await call('POST', '/api/devices/task-result', { ...creds(), taskId: 'a', summary: 's'.repeat(141) })).status,
    ).toBe(400);
  });

  it('accepts only the allowed event kinds and detail ≤300', async () => {
    expect(
      (await call('POST', '/api/devices/event', { ...creds(), kind: 'device_note', detail: 'hello' })).status,
    ).toBe(200);
    expect((await call('POST', '/api/devices/event', { ...creds(), kind: 'reboot' })).status).toBe(400);
    expect(
      (await call('POST', '/api/devices/event', { ...creds(), kind: 'device_note', detail: 'd'.repeat(301) })).status,
    ).toBe(400);
  });

  it('checks transcript limits', async () => {
    expect(
      (await call('POST', '/api/devices/transcript', { ...creds(), text: 'hi', durationS: 3 })).body,
    ).toMatchObject({ ok: true, id: expect.any(String) });
    expect(
      (await call('POST', '/api/devices/transcript', { ...creds(), text: 'hi', audioUrl: 'http://x/y' })).status,
    ).toBe(400);
    expect((await call('POST', '/api/devices/transcript', { ...creds(), text: 'hi', durationS: 1.5 })).status).toBe(
      400,
    );
  });

  it('stores media of an allowed type and serves it from /media/<key>; 401 for a bad device', async () => {
    const out = await call('POST', '/api/media', {
      ...creds(),
      data: Buffer.from('png-bytes').toString('base64'),
      contentType: 'image/png',
    });
    expect(out.body).toMatchObject({
      ok: true,
      key: expect.any(String),
      url: expect.stringContaining('/media/'),
      bytes: 9,
    });
    const served = await fetch(out.body.url as string);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).toString()).toBe('png-bytes');
    // docs/platform.md names no media types: a text result stored as media is one reading it allows.
    expect((await call('POST', '/api/media', { ...creds(), data: 'AA==', contentType: 'text/plain' })).status).toBe(
      200,
    );
    expect((await call('POST', '/api/media', { ...creds(), data: 'AA==', contentType: 'not a type' })).status).toBe(
      400,
    );
    expect(
      (
        await call('POST', '/api/media', {
          deviceId: dev.deviceId,
          token: 'bad',
          data: 'AA==',
          contentType: 'image/png',
        })
      ).status,
    ).toBe(401);
  });

  it('takes 6 MB in its larger reading (6 MiB) and refuses more with a 400, never an invented 413', async () => {
    const of = (n: number) => ({ ...creds(), data: Buffer.alloc(n, 1).toString('base64'), contentType: 'image/png' });
    expect((await call('POST', '/api/media', of(6 * 1024 * 1024))).status).toBe(200);
    expect(await call('POST', '/api/media', of(6 * 1024 * 1024 + 1))).toMatchObject({ status: 400 });
  });

  it('says "unknown device" instead of "unauthorized" when set to, still with a 401', async () => {
    emu.setDeviceMiss('unknown device');
    expect(
      await call('POST', '/api/media', { deviceId: 'nope', token: 'x', data: 'AA==', contentType: 'image/png' }),
    ).toEqual({
      status: 401,
      body: { error: 'unknown device' },
    });
    expect(await call('POST', '/api/devices/heartbeat', { deviceId: 'nope', token: 'x' })).toEqual({
      status: 401,
      body: { error: 'unknown device' },
    });
  });

  it('serves the firmware pointer and refuses a downgrade with 409 unless forced', async () => {
    const pointer = (version: string, force?: boolean) => ({
      channel: 'stable',
      version,
      url: `${emu.url}/fw/m.json`,
      sha256: 'a'.repeat(64),
      ...(force ? { force: true } : {}),
    });
    expect((await call('PUT', '/api/firmware/manifest', { ...creds(), channel: 'stable' })).body).toEqual({
      ok: true,
      bundle: null,
    });
    expect((await call('POST', '/api/firmware/manifest', pointer('1.10.0'), owner.session)).status).toBe(200);
    expect((await call('POST', '/api/firmware/manifest', pointer('1.9.0'), owner.session)).status).toBe(409);
    expect(
      (
        await call(
          'POST',
          '/api/firmware/manifest',
          { ...pointer('2.0.0'), url: 'https://evil.example/m.json' },
          owner.session,
        )
      ).status,
    ).toBe(400);
    expect((await call('POST', '/api/firmware/manifest', pointer('1.9.0', true), owner.session)).status).toBe(200);
    const out = await call('PUT', '/api/firmware/manifest', { ...creds(), channel: 'stable' });
    expect(out.body.bundle).toMatchObject({ version: '1.9.0', force: '1', sha256: 'a'.repeat(64) });
  });

  it('answers as a proxy with a dead worker: 424 registry unreachable, firmware 503 retryable', async () => {
    emu.setWorkerDown(true);
    expect(await call('POST', '/api/devices/heartbeat', creds())).toEqual({
      status: 424,
      body: { error: 'registry unreachable' },
    });
    expect(await call('PUT', '/api/firmware/manifest', { ...creds(), channel: 'stable' })).toMatchObject({
      status: 503,
      body: { retryable: true },
    });
  });

  it('answers a hung worker with 503 {error} (docs/platform.md, "Errors": the 10 s bound)', async () => {
    emu.setWorkerDown('hang');
    expect(await call('POST', '/api/devices/heartbeat', creds())).toMatchObject({
      status: 503,
      body: { error: expect.any(String) },
    });
    expect(await call('GET', '/api/devices', undefined, owner.session)).toMatchObject({ status: 503 });
  });

  it('cuts connections during an outage', async () => {
    emu.setOutage(true);
    await expect(fetch(`${emu.url}/api/health`)).rejects.toThrow();
    emu.setOutage(false);
    expect((await call('POST', '/api/devices/heartbeat', creds())).status).toBe(200);
  });
});
