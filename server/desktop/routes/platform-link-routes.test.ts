/**
 * The platform link routes of an enrolled robot on a real cockpit (testing/platform-rig.ts):
 * connect and disconnect, the firmware channel and install consent, the owner session for
 * use_device, a refused token re-keyed on adopt, and a notify envelope shown on /ws. No answer
 * carries a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../testing/cockpit-harness.ts';
import { pasted, SESSION, startPlatformRig, type PlatformRig } from './testing/platform-rig.ts';

let rig: PlatformRig;

beforeAll(async () => {
  rig = await startPlatformRig();
  expect((await rig.call('POST', '/api/console/platform/enrol', pasted)).status).toBe(200);
});
afterAll(() => rig.close());

describe('an enrolled robot', () => {
  it('disconnects and connects, sets the firmware channel, refuses a bad one', async () => {
    expect((await rig.call('POST', '/api/console/platform/disconnect')).json).toMatchObject({ connected: false });
    expect((await rig.call('POST', '/api/console/platform/connect')).json).toMatchObject({ connected: true });
    expect((await rig.call('PUT', '/api/console/platform/firmware', { channel: 'beta' })).json).toMatchObject({
      firmware: { channel: 'beta' },
    });
    expect(await rig.call('PUT', '/api/console/platform/firmware', { channel: 'Not OK' })).toMatchObject({
      status: 400,
    });
  });

  it('sets the install consent with or without the channel, and validates both', async () => {
    expect((await rig.call('PUT', '/api/console/platform/firmware', { installAllowed: true })).json).toMatchObject({
      firmware: { channel: 'beta', installAllowed: true, installer: null },
    });
    expect(
      (await rig.call('PUT', '/api/console/platform/firmware', { channel: 'stable', installAllowed: false })).json,
    ).toMatchObject({ firmware: { channel: 'stable', installAllowed: false } });
    for (const body of [{}, { installAllowed: 'yes' }, { channel: 3 }, { channel: 'x'.repeat(33) }, { other: 1 }])
      expect(await rig.call('PUT', '/api/console/platform/firmware', body)).toMatchObject({
        status: 400,
        json: { code: 'BAD_REQUEST' },
      });
    rig.port.failStorage = true;
    expect(await rig.call('PUT', '/api/console/platform/firmware', { installAllowed: true })).toEqual({
      status: 503,
      json: { error: 'the disk is full', code: 'STORAGE_FAILED' },
    });
    rig.port.failStorage = false;
  });

  it('stores the owner session for use_device, never echoing it, and forgets it', async () => {
    expect(await rig.call('PUT', '/api/console/platform/owner-session', { token: `${SESSION}x` })).toEqual({
      status: 400,
      json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' },
    });
    for (const body of [{}, { token: '' }, { token: SESSION, extra: 1 }, { token: 'x'.repeat(513) }])
      expect(await rig.call('PUT', '/api/console/platform/owner-session', body)).toMatchObject({ status: 400 });
    expect((await rig.call('PUT', '/api/console/platform/owner-session', { token: SESSION })).json).toMatchObject({
      ownerSession: 'stored',
    });
    expect((await rig.call('DELETE', '/api/console/platform/owner-session')).json).toMatchObject({
      ownerSession: null,
    });
  });

  it('shows a refused token and re-keys through the owner session on adopt; an unreachable platform is not NOT_CONFIGURED', async () => {
    rig.port.set({
      tokenNotice: { kind: 'rotated', since: 1, message: 'rotated by the owner', offer: 'adopt' },
      halted: { reason: 'token_rotated', since: 1, message: 'rotated by the owner' },
    });
    expect((await rig.call('GET', '/api/console/platform')).json).toMatchObject({
      tokenNotice: { kind: 'rotated', offer: 'adopt', message: 'rotated by the owner' },
      halted: { reason: 'token_rotated' },
    });
    expect(await rig.call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 400,
      json: { code: 'BAD_REQUEST' },
    });
    expect((await rig.call('PUT', '/api/console/platform/owner-session', { token: SESSION })).status).toBe(200);
    rig.port.platformDown = true;
    expect(await rig.call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 503,
      json: { code: 'PLATFORM_UNREACHABLE', error: 'platform unreachable' },
    });
    rig.port.platformDown = false;
    expect(await rig.call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 200,
      json: { tokenNotice: null, halted: null },
    });
    expect((await rig.call('DELETE', '/api/console/platform/owner-session')).status).toBe(200);
  });

  it('shows a notify envelope as an event receipt (system) and a notify frame', async () => {
    const { ws, frames } = await rig.socket();
    rig.cockpit.notify({ title: 'Job done', body: 'The nightly job finished', tag: 'job', url: '/jobs' });
    expect(await until(() => frames.some((f) => f['type'] === 'notify'), 2000)).toBe(true);
    expect(frames.find((f) => f['type'] === 'notify')).toEqual({
      type: 'notify',
      title: 'Job done',
      body: 'The nightly job finished',
      tag: 'job',
      url: '/jobs',
    });
    expect(frames.find((f) => f['type'] === 'event')).toMatchObject({
      action: 'notify',
      credential: 'system',
      values: { title: 'Job done', tag: 'job', url: '/jobs' },
    });
    ws.close();
  });
});
