import { afterEach, describe, expect, it } from 'vitest';
import { capabilityList, heartbeatBody, unreadOf } from './heartbeat.ts';
import { startHarness, type Harness } from './test/client-harness.ts';
import { emulatorSeesOnline } from './test/platform-emulator.ts';

let h: Harness;
afterEach(() => h?.close());

const beats = () => h.emu.requests.filter((r) => r.path === '/api/devices/heartbeat');

describe('heartbeat against the emulator', () => {
  it('beats at start, then every 30 s, with capabilities, the private LAN URL and wantUnread', async () => {
    h = await startHarness();
    h.emu.setUnread(h.owner.userId, 3);
    await h.client.start();
    await h.sched.advance(0);
    expect(beats()).toHaveLength(1);
    expect(beats()[0]?.body).toMatchObject({
      capabilities: ['say', 'look', 'status'],
      lanUrl: 'http://192.168.1.50:8097',
      wantUnread: '1',
    });
    expect(h.client.status()).toMatchObject({ online: true, unread: 3, lastHeartbeatAt: h.sched.now() });

    await h.sched.advance(29_999);
    expect(beats()).toHaveLength(1);
    await h.sched.advance(1);
    expect(beats()).toHaveLength(2);
    await h.sched.advance(90_000);
    expect(h.times('POST', '/api/devices/heartbeat')).toEqual([0, 30_000, 60_000, 90_000, 120_000]);
  });

  it('keeps the device present between beats and lets presence lapse 60 s after the last one', async () => {
    h = await startHarness();
    await h.client.start();
    await h.sched.advance(0);
    await h.sched.advance(59_000);
    expect(emulatorSeesOnline(h.emu, h.device.deviceId)).toBe(true);
    await h.client.disconnect();
    const last = h.client.status().lastHeartbeatAt as number;
    await h.sched.advance(last + 59_999 - h.sched.now());
    expect(emulatorSeesOnline(h.emu, h.device.deviceId)).toBe(true);
    await h.sched.advance(1);
    expect(emulatorSeesOnline(h.emu, h.device.deviceId)).toBe(false);
    expect(h.client.status().online).toBe(false);
  });

  it('keeps the last unread count when the platform leaves it out', async () => {
    h = await startHarness();
    h.emu.setUnread(h.owner.userId, 7);
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().unread).toBe(7);
    h.emu.setUnread(h.owner.userId, null);
    const beats = h.times('POST', '/api/devices/heartbeat').length;
    await h.sched.advance(30_000);
    expect(h.times('POST', '/api/devices/heartbeat').length).toBe(beats + 1);
    expect(h.client.status()).toMatchObject({ unread: 7, lastHeartbeatAt: h.sched.now() });
    h.emu.setUnread(h.owner.userId, 2);
    await h.sched.advance(30_000);
    expect(h.client.status().unread).toBe(2);
  });
});

describe('heartbeat body', () => {
  it.each([
    [0, 0],
    [4, 4],
    [-3, null],
    [2.5, null],
    [1e308, null],
    [2 ** 53 + 1, null],
    ['4', null],
    [null, null],
  ])('reads an unread count of %j as %j: only a count is one', (unread, read) => {
    expect(unreadOf({ unread })).toBe(read);
  });

  it('drops a LAN URL the worker would refuse', () => {
    expect(heartbeatBody(['say'], 'http://127.0.0.1:8097')).toEqual({ capabilities: ['say'], wantUnread: '1' });
    expect(heartbeatBody(['say'], 'https://robot.example')).not.toHaveProperty('lanUrl');
  });

  it('keeps at most 32 distinct capabilities of 1–32 characters', () => {
    const many = Array.from({ length: 40 }, (_, i) => `verb${i}`);
    expect(capabilityList(many)).toHaveLength(32);
    expect(capabilityList(['say', 'say', '', 'x'.repeat(33), 'look'])).toEqual(['say', 'look']);
  });
});
