import { X509Certificate } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { get } from 'node:https';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSoftAuthenticator } from '../auth/testing/soft-authenticator.ts';
import { SESSION_COOKIE } from '../http/caller.ts';
import { startFakeRover } from './drive/testing/fake-rover.ts';
import {
  closeCode,
  openSocket,
  OWNER_TOKEN,
  startWheeledHarness,
  type WheeledHarness,
} from './testing/wheeled-harness.ts';
import { eventually } from '../testing/eventually.ts';

let h: WheeledHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Fetches over HTTPS as a client that trusts nothing but the system store. */
function untrusted(url: string): Promise<number> {
  return new Promise((resolve, reject) =>
    get(url, { agent: false }, (res) => resolve(res.statusCode ?? 0)).on('error', reject),
  );
}

describe('the wheeled server: over TLS', () => {
  it('completes a TLS handshake verified with the generated CA, with a server-b certificate', async () => {
    h = await startWheeledHarness({ tls: true });
    const { server } = h;
    expect(server.secure).toBe(true);
    expect((await h.call('/api/health', { token: null })).json).toMatchObject({
      ok: true,
      robot: 'wheeled',
      tls: true,
    });
    await expect(untrusted(`${server.url}/api/health`)).rejects.toMatchObject({
      code: expect.stringMatching(/UNABLE_TO_VERIFY|SELF_SIGNED/),
    });
    expect((await readdir(join(h.dataDir, 'tls'))).sort()).toEqual([
      'ca-cert.pem',
      'ca-key.pem',
      'server-b-cert.pem',
      'server-b-key.pem',
    ]);
    const ca = new X509Certificate(server.caCertPem as string);
    const crt = await h.call('/ca.crt', { token: null });
    expect(crt.text).toBe(server.caCertPem);
    expect(crt.headers.get('content-type')).toContain('x509-ca-cert');
    expect(ca.ca).toBe(true);
    // Sockets over TLS too.
    const socket = await openSocket(`${h.wsUrl}/ws/state?token=${encodeURIComponent(h.serviceToken)}`, {
      ca: server.caCertPem as string,
    });
    expect(await socket.next((f) => f.type === 'state')).toMatchObject({ robot: 'wheeled', trail: expect.any(Array) });
    socket.ws.close();
  });

  it('serves the trust pages publicly: QR code, download and steps for five platforms', async () => {
    h = await startWheeledHarness({ tls: true });
    const page = await h.call('/ca', { token: null });
    expect(page.status).toBe(200);
    for (const text of ['<svg', 'href="/ca.crt"', 'iPhone and iPad', 'Android', 'macOS', 'Windows', 'Linux'])
      expect(page.text).toContain(text);
    expect(page.text).toContain(new X509Certificate(h.server.caCertPem as string).fingerprint256);
    const card = await h.call('/field-card', { token: null });
    expect(card.text).toMatch(/Drive this rover[\s\S]*<svg/);
    const trust = await h.call('/trust', { token: null });
    expect(trust.status).toBe(302);
    expect(trust.headers.get('location')).toBe('/ca');
    expect(page.text).toContain('Trust this robot');
  });
});

describe('the wheeled server: authentication', () => {
  it('issues a JWT at passkey registration and login; refresh renews it; logout ends it and its sockets', async () => {
    h = await startWheeledHarness();
    const origin = h.url;
    const phone = createSoftAuthenticator({ origin });
    const begin = await h.call('/api/auth/register/begin', { method: 'POST', body: {}, token: null });
    expect(begin.status).toBe(200);
    const response = phone.register(begin.json.options as never);
    const registered = await h.call('/api/auth/register/complete', {
      method: 'POST',
      body: { challengeId: begin.json.challengeId, response },
      token: null,
    });
    expect(registered.json).toMatchObject({ ok: true, token: expect.any(String), tokenExpiresAt: expect.any(Number) });
    const cookie = registered.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+;.*path=/api/auth/`));

    const loginBegin = await h.call('/api/auth/login/begin', { method: 'POST', body: {}, token: null });
    const assertion = phone.login(loginBegin.json.options as never);
    const login = await h.call('/api/auth/login/complete', {
      method: 'POST',
      body: { challengeId: loginBegin.json.challengeId, response: assertion },
      token: null,
    });
    const jwt = login.json.token as string;
    expect(jwt.split('.')).toHaveLength(3);
    expect((await h.call('/api/state', { token: jwt })).status).toBe(200);
    expect((await h.call('/api/auth/status', { token: jwt })).json).toMatchObject({ who: 'passkey', owner: true });

    // Refresh with the cookie alone (the JWT may have run out), as the dashboard does after a reload.
    const loginCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const refreshed = await h.call('/api/auth/refresh', {
      method: 'POST',
      token: null,
      headers: { cookie: loginCookie },
    });
    expect(refreshed.json).toMatchObject({ ok: true, token: expect.any(String) });
    expect((await h.call('/api/state', { token: refreshed.json.token as string })).status).toBe(200);

    const socket = await openSocket(`${h.wsUrl}/ws/chat?token=${encodeURIComponent(jwt)}`);
    expect(
      (await h.call('/api/auth/logout', { method: 'POST', token: jwt, headers: { cookie: loginCookie } })).status,
    ).toBe(200);
    expect(await socket.closed).toBe(4401);
    expect((await h.call('/api/state', { token: jwt })).status).toBe(401);
    expect((await h.call('/api/state', { token: refreshed.json.token as string })).status).toBe(401);
  });

  it('answers anonymous and stale callers 401 {error} and closes their sockets with 4401', async () => {
    // The access model's clock: real time, plus what the test moves it on by.
    let movedOnMs = 0;
    h = await startWheeledHarness({ clock: { now: () => Date.now() + movedOnMs } });
    const anonymous = await h.call('/api/state', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toEqual(expect.any(String));
    // A session JWT whose session has expired is refused, though its signature is good.
    const stale = await h.sessionJwt(1);
    expect((await h.call('/api/state', { token: stale })).status).toBe(200);
    movedOnMs = 2000;
    expect((await h.call('/api/state', { token: stale })).json).toMatchObject({
      code: 'AUTH_REQUIRED',
      error: 'invalid or expired credential',
    });
    expect(await closeCode(`${h.wsUrl}/ws/chat`)).toBe(4401);
    expect(await closeCode(`${h.wsUrl}/ws/voice?token=${encodeURIComponent(stale)}`)).toBe(4401);
    expect(await closeCode(`${h.wsUrl}/ws/nope?token=${encodeURIComponent(h.serviceToken)}`)).toBe(4404);
  });

  it('accepts a service token; the console mints, lists and revokes them, and a revoked token is closed out', async () => {
    h = await startWheeledHarness();
    expect((await h.call('/api/state', { token: h.serviceToken })).status).toBe(200);
    const minted = await h.call('/api/console/tokens', {
      method: 'POST',
      body: { sub: 'rover-2', name: 'sibling', ttlSeconds: 86400 },
    });
    expect(minted.status).toBe(201);
    const token = minted.json.token as string;
    expect((await h.call('/api/state', { token })).status).toBe(200);
    // A service token may not mint its own successors.
    expect(
      (await h.call('/api/console/tokens', { method: 'POST', token, body: { sub: 'x', name: 'y', ttlSeconds: 60 } }))
        .status,
    ).toBe(403);
    const listed = await h.call('/api/console/tokens');
    expect(listed.text).not.toContain(token);
    expect(listed.json.tokens).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: minted.json.id, sub: 'rover-2', state: 'active' })]),
    );
    const socket = await openSocket(`${h.wsUrl}/ws/state?token=${encodeURIComponent(token)}`);
    expect((await h.call(`/api/console/tokens/${String(minted.json.id)}`, { method: 'DELETE' })).json).toMatchObject({
      ok: true,
      token: { state: 'revoked' },
    });
    expect(await socket.closed).toBe(4401);
    expect((await h.call('/api/state', { token })).status).toBe(401);
  });

  it('origin-checks and rate-limits control routes like the desktop server', async () => {
    h = await startWheeledHarness();
    const jwt = await h.sessionJwt();
    const foreign = await h.call('/api/control', {
      method: 'POST',
      token: jwt,
      body: { linear: 0.1, angular: 0 },
      headers: { origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const own = await h.call('/api/control', {
      method: 'POST',
      token: jwt,
      body: { linear: 0.1, angular: 0 },
      headers: { origin: h.url },
    });
    expect(own.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await h.call('/api/control', { method: 'POST', body: { stop: true } })).status);
    expect(statuses).toContain(429);
  });
});

describe('the wheeled server: drive over HTTP', () => {
  it('clamps a frame, moves the base for its duration only, and applies the thinker gate', async () => {
    h = await startWheeledHarness({ env: { ROBOT_RATE_LIMIT: '100' } });
    const thinker = (await h.server.mintServiceToken({ sub: 'thinker', name: 'persona', ttlSeconds: 600 })).token;
    const frame = await h.call('/api/control', { method: 'POST', body: { linear: 4, angular: 0, duration: 3 } });
    expect(frame.json).toMatchObject({
      ok: true,
      driver: 'operator',
      applied: { linear: 1, angular: 0, duration: 1 },
      clamped: true,
    });
    const refused = await h.call('/api/control', { method: 'POST', token: thinker, body: { linear: 0.2, angular: 0 } });
    expect(refused).toMatchObject({ status: 403, json: { code: 'AUTH_FORBIDDEN' } });
    expect((await h.call('/api/drive/gate', { method: 'POST', token: thinker, body: { open: true } })).status).toBe(
      403,
    );
    expect((await h.call('/api/drive/gate', { method: 'POST', body: { open: true } })).json).toMatchObject({
      open: true,
    });
    // The operator's frame is still running: the thinker waits.
    expect(
      (await h.call('/api/control', { method: 'POST', token: thinker, body: { linear: 0.2, angular: 0 } })).status,
    ).toBe(409);
    expect((await h.call('/api/control/stop', { method: 'POST' })).json).toMatchObject({ stopped: true });
    const state = (await h.call('/api/state')).json as {
      velocity: { linear: number };
      pose: { x: number };
      gate: { open: boolean };
    };
    expect(state.velocity.linear).toBe(0);
    expect(state.pose.x).toBeGreaterThan(0);
    expect(state.gate.open).toBe(true);
    const reset = await h.call('/api/drive/reset', { method: 'POST' });
    expect(reset.json).toMatchObject({ pose: { x: 0, y: 0, heading: 0 }, trail: [[0, 0]] });
  });

  it('keeps the speed presets and reports them with the limits', async () => {
    h = await startWheeledHarness();
    expect((await h.call('/api/drive/settings')).json).toMatchObject({
      preset: 'normal',
      presets: { slow: 0.35, normal: 0.6, fast: 1 },
      gate: { open: false },
    });
    expect(
      (await h.call('/api/drive/settings', { method: 'PUT', body: { preset: 'slow', presets: { slow: 0.2 } } })).json,
    ).toMatchObject({ preset: 'slow', presets: { slow: 0.2 } });
    expect((await h.call('/api/drive/settings', { method: 'PUT', body: { preset: 'warp' } })).status).toBe(400);
    expect((await h.call('/api/control', { method: 'POST', body: { linear: 1, angular: 0 } })).json).toMatchObject({
      scale: 0.2,
    });
  });

  it('serves the camera of the simulated base', async () => {
    h = await startWheeledHarness();
    const snap = await h.call(`/api/camera/snapshot?token=${encodeURIComponent(OWNER_TOKEN)}`, { token: null });
    expect(snap.status).toBe(200);
    expect(snap.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('the wheeled server: chat over HTTP', () => {
  it('answers one turn with {ok, result, reply, seconds}, offering no fleet tools', async () => {
    h = await startWheeledHarness({ model: true });
    const res = await h.call('/api/chat', { method: 'POST', body: { prompt: 'hello rover' } });
    expect(res.json).toEqual({
      ok: true,
      result: 'You said: hello rover',
      reply: 'You said: hello rover',
      seconds: expect.any(Number),
    });
    expect(h.fake?.requests[0]?.toolNames).toEqual(['base_state', 'drive', 'stop']);
    expect((await h.call('/api/chat', { method: 'POST', body: { text: 'x'.repeat(600) } })).status).toBe(200);
  });

  it('refuses 601 characters with 400', async () => {
    h = await startWheeledHarness({ model: true });
    const res = await h.call('/api/chat', { method: 'POST', body: { text: 'x'.repeat(601) } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/at most 600 characters/);
    expect(h.fake?.requests).toHaveLength(0);
  });

  it('gives up with 504 when the turn runs past the wait', async () => {
    h = await startWheeledHarness({ model: () => ({ kind: 'hang' }), tuning: { chatWaitMs: 300 } });
    const res = await h.call('/api/chat', { method: 'POST', body: { text: 'are you there?' } });
    expect(res).toMatchObject({ status: 504, json: { code: 'TIMEOUT' } });
    await eventually(() => h?.fake?.hanging() === 0, { what: 'h?.fake?.hanging() to be 0' });
  });

  it('says honestly that no model is configured', async () => {
    h = await startWheeledHarness();
    expect((await h.call('/api/chat', { method: 'POST', body: { text: 'hi' } })).json).toMatchObject({
      code: 'NOT_CONFIGURED',
      error: 'no model configured',
    });
  });
});

describe('the wheeled server: with a real rover behind HTTP', () => {
  it('drives the rover SDK and reports its telemetry', async () => {
    const rover = await startFakeRover();
    try {
      h = await startWheeledHarness({ backend: { kind: 'http', url: rover.url } });
      expect((await h.call('/api/health', { token: null })).json).toMatchObject({
        ok: true,
        backend: { kind: 'http', simulated: false, presence: 'connected', battery: 87 },
      });
      expect(
        (await h.call('/api/control', { method: 'POST', body: { linear: 1, angular: 0.5, duration: 0.2 } })).status,
      ).toBe(200);
      await eventually(
        () => {
          expect(rover.commands.at(-1)).toMatchObject({ linear: 0, angular: 0 });
          return true;
        },
        { what: 'the rover to be stopped when the frame ran out' },
      );
      // Scaled by the "normal" preset (0.6) before it reaches the SDK.
      expect(rover.commands[0]).toMatchObject({ linear: 0.6, angular: 0.3 });
    } finally {
      await h?.close();
      h = undefined;
      await rover.close();
    }
  });
});
