import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const polls = () => h.times('PUT', '/api/devices/relay');
const beats = () => h.times('POST', '/api/devices/heartbeat');
/** The check behind the notice asks the platform (the owner's device list): wait for its answer. */
const noticed = () => vi.waitFor(() => expect(h.client.status().tokenNotice).not.toBeNull());

/** A client enrolled with a stored (pasted) identity, its owner session optionally stored. */
async function enrolled(withSession: boolean) {
  h = await startHarness({ enrolled: false });
  await h.client.start();
  expect(await h.client.enrol({ platformUrl: h.emu.url, ...h.device })).toMatchObject({ ok: true });
  if (withSession) expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({ ok: true });
  await h.sched.advance(0);
}

describe('a refused device token is told to the owner at once', () => {
  it('rotated elsewhere (adopt): halts at the first 401, tells the owner once, and re-keys in place on adopt', async () => {
    await enrolled(true);
    const rotated = await h.owned('POST', '/api/devices/adopt', { deviceId: h.device.deviceId });
    expect(rotated.status).toBe(200);
    // The next poll (5 s) is refused; the owner's own list still shows this device: rotated.
    await h.sched.advance(5_000);
    await noticed();
    const status = h.client.status();
    expect(status.tokenNotice).toMatchObject({ kind: 'rotated', offer: 'adopt' });
    expect(status.halted).toMatchObject({ reason: 'token_rotated' });
    expect(h.notifications).toEqual([
      {
        title: 'Platform token rotated',
        body: expect.stringMatching(/rotated/),
        tag: 'platform-token',
        url: '/#platform',
      },
    ]);
    // No more polling, and no second notice while the token stays refused.
    const pollsAtHalt = polls().length;
    await h.sched.advance(10 * 60_000);
    expect(polls().length).toBe(pollsAtHalt);
    expect(h.notifications).toHaveLength(1);

    const adopted = await h.client.adoptToken();
    expect(adopted).toMatchObject({ ok: true, value: { halted: null, tokenNotice: null, online: true } });
    const adopts = h.emu.requests.filter((r) => r.path === '/api/devices/adopt');
    expect(adopts.at(-1)?.body).toEqual({ deviceId: h.device.deviceId });
    await h.sched.advance(5_000);
    expect(polls().length).toBeGreaterThan(pollsAtHalt);
    expect(h.client.status().lastError).toBeNull();
  });

  it('removed by the owner: says so and halts at once, offering a new enrolment', async () => {
    await enrolled(true);
    await h.owned('DELETE', '/api/devices', { deviceId: h.device.deviceId });
    await h.sched.advance(5_000);
    await noticed();
    expect(h.client.status()).toMatchObject({
      tokenNotice: { kind: 'removed', offer: 'enrol' },
      halted: { reason: 'device_removed' },
    });
    expect(await h.client.adoptToken()).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request', message: expect.stringMatching(/no longer one of the owner's devices/) },
    });
  });

  it('removed: the heartbeat planned before the halt waits for the halted cadence too', async () => {
    await enrolled(true);
    await h.owned('DELETE', '/api/devices', { deviceId: h.device.deviceId });
    await h.sched.advance(5_000);
    await noticed();
    expect(h.client.status().halted).toMatchObject({ reason: 'device_removed' });
    // The beat planned for 30 s, at the pace before the halt, would go out with the dead token.
    const beatsAtHalt = beats().length;
    await h.sched.advance(5 * 60_000 - 1);
    expect(beats().length).toBe(beatsAtHalt);
    await h.sched.advance(1);
    expect(beats().length).toBe(beatsAtHalt + 1);
  });

  it('without an owner session: tells the owner at the first 401, leaves the halt to the strike policy', async () => {
    await enrolled(false);
    await h.owned('POST', '/api/devices/adopt', { deviceId: h.device.deviceId });
    await h.sched.advance(5_000);
    await noticed();
    expect(h.client.status()).toMatchObject({ tokenNotice: { kind: 'refused', offer: 'enrol' }, halted: null });
    expect(h.notifications.map((n) => n.title)).toEqual(['Platform token refused']);
    await h.sched.advance(6 * 60_000);
    expect(h.client.status().halted).toMatchObject({ reason: 'token_rejected' });
    expect(h.notifications).toHaveLength(1);
    expect(await h.client.adoptToken()).toMatchObject({
      ok: false,
      failure: { message: expect.stringMatching(/session token first/) },
    });
  });

  it('clears the notice when the token is accepted again', async () => {
    await enrolled(false);
    const row = h.emu.ctx.state.devices.get(h.device.deviceId)!;
    row.revoked = true;
    await h.sched.advance(5_000);
    await noticed();
    expect(h.client.status().tokenNotice).not.toBeNull();
    row.revoked = false;
    await h.sched.advance(30_000);
    expect(h.client.status().tokenNotice).toBeNull();
  });

  it('never adopts over an identity the environment decides', async () => {
    h = await startHarness();
    await h.client.start();
    await h.client.setOwnerSession(h.owner.session);
    expect(await h.client.adoptToken()).toMatchObject({ ok: false, failure: { kind: 'conflict' } });
    expect(h.emu.requests.filter((r) => r.path === '/api/devices/adopt')).toHaveLength(0);
  });
});
