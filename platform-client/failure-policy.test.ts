import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const MIN = 60_000;
const polls = () => h.times('PUT', '/api/devices/relay');
const setRevoked = (revoked: boolean) => {
  const row = h.emu.ctx.state.devices.get(h.device.deviceId);
  if (row) row.revoked = revoked;
};

describe('401 strike policy', () => {
  it('a revoked device keeps polling until 3+ strikes span 5 minutes, then halts only the fast loops', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    const revokedAt = h.sched.now();
    await h.owned('DELETE', '/api/devices', { deviceId: h.device.deviceId });

    await h.sched.advance(4 * MIN);
    expect(h.client.status().halted).toBeNull();
    const pollsAt4 = polls().length;
    await h.sched.advance(MIN - 5_000);
    expect(h.client.status().halted).toBeNull();
    expect(polls().length).toBeGreaterThan(pollsAt4);

    // The first 401 came from the poll 5 s after the revocation; the span reaches 5 minutes at 305 s.
    await h.sched.advance(10_000);
    const status = h.client.status();
    expect(status.halted).toMatchObject({
      reason: 'token_rejected',
      message: expect.stringMatching(/enrol the robot again/),
    });
    expect(status.online).toBe(false);
    expect(status.lastError).toMatchObject({ kind: 'unauthorized' });
    expect(h.sched.now() - revokedAt).toBeGreaterThanOrEqual(5 * MIN);

    // Halted: no more polling; heartbeat every 5 minutes; identity kept.
    const pollsAtHalt = polls().length;
    const beatsAtHalt = h.times('POST', '/api/devices/heartbeat').length;
    await h.sched.advance(20 * MIN);
    expect(polls().length).toBe(pollsAtHalt);
    const beats = h.times('POST', '/api/devices/heartbeat').slice(beatsAtHalt);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats.length).toBeLessThanOrEqual(5);
    expect(h.client.status().enrolled).toBe(true);
  });

  it('any success clears the count, so a short 401 spell never halts', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    setRevoked(true);
    await h.sched.advance(4 * MIN);
    setRevoked(false);
    await h.sched.advance(10_000);
    setRevoked(true);
    await h.sched.advance(4 * MIN);
    expect(h.client.status().halted).toBeNull();
  });

  it('a halted device resumes polling when the platform accepts it again', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    setRevoked(true);
    await h.sched.advance(6 * MIN);
    expect(h.client.status().halted).not.toBeNull();
    setRevoked(false);
    await h.sched.advance(5 * MIN);
    expect(h.client.status().halted).toBeNull();
    const before = polls().length;
    await h.sched.advance(20_000);
    expect(polls().length).toBeGreaterThanOrEqual(before + 4);
  });
});

describe('transport failures', () => {
  it('backs off up to 60 s during an outage and recovers to the normal cadence', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    h.emu.setOutage(true);
    const outageStart = polls().length;
    await h.sched.advance(4 * MIN);
    const during = polls().slice(outageStart - 1);
    const gaps = during.slice(1).map((t, i) => t - (during[i] as number));
    expect(gaps.slice(0, 6)).toEqual([5_000, 5_000, 10_000, 20_000, 40_000, 60_000]);
    expect(Math.max(...gaps)).toBe(60_000);
    expect(h.client.status()).toMatchObject({ online: false, lastError: { kind: 'transport' }, halted: null });

    h.emu.setOutage(false);
    await h.sched.advance(2 * MIN);
    const after = polls();
    const tail = after.slice(-4);
    expect(tail.slice(1).map((t, i) => t - (tail[i] as number))).toEqual([5_000, 5_000, 5_000]);
    expect(h.client.status().online).toBe(true);
  });

  it('treats a dead worker behind the proxy (424) like an outage, without strikes', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    h.emu.setWorkerDown(true);
    await h.sched.advance(10 * MIN);
    expect(h.client.status()).toMatchObject({ halted: null, lastError: { kind: 'unavailable' } });
    const gaps = polls().slice(-3);
    expect(gaps[2]! - gaps[1]!).toBe(60_000);
  });
});
