/**
 * The platform enrolment routes on a real cockpit (testing/platform-rig.ts): the pasted identity,
 * the owner session token, the endpoint device, forgetting, and the environment deciding. Checks
 * the edge validation, the refusal mapping, that no token comes back, the /ws frames, and the
 * answers of a cockpit without a platform client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_TOKEN, until, type Harness } from '../../testing/cockpit-harness.ts';
import { call, initial, pasted, SESSION, startPlatformRig, TOKEN, type PlatformRig } from './testing/platform-rig.ts';

let rig: PlatformRig;
let bare: Harness;

beforeAll(async () => {
  rig = await startPlatformRig();
  bare = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await rig.close();
  await bare.close();
});

describe('without a platform client', () => {
  it('says so on GET and answers 503 NOT_CONFIGURED elsewhere', async () => {
    expect(await call(bare.url, 'GET', '/api/console/platform')).toEqual({
      status: 200,
      json: { enrolled: false, available: false },
    });
    for (const [method, path, body] of [
      ['POST', '/api/console/platform/enrol', pasted],
      ['POST', '/api/console/platform/connect', undefined],
      ['POST', '/api/console/platform/disconnect', undefined],
      ['DELETE', '/api/console/platform', undefined],
      ['PUT', '/api/console/platform/firmware', { channel: 'beta' }],
      [
        'POST',
        '/api/console/platform/enrol-session',
        { platformUrl: 'https://p.example', sessionToken: SESSION, name: 'r' },
      ],
      ['PUT', '/api/console/platform/owner-session', { token: SESSION }],
      ['DELETE', '/api/console/platform/owner-session', undefined],
      ['POST', '/api/console/platform/adopt', undefined],
      [
        'POST',
        '/api/console/platform/enrol-endpoint',
        { platformUrl: 'https://p.example', sessionToken: SESSION, name: 'r', url: 'https://robot.example' },
      ],
    ] as const) {
      expect(await call(bare.url, method, path, body)).toMatchObject({ status: 503, json: { code: 'NOT_CONFIGURED' } });
    }
  });
});

describe('with a platform client', () => {
  it('validates the enrolment at the edge: an object of three bounded strings, nothing else', async () => {
    const bad = [
      [],
      { ...pasted, token: 42 },
      { platformUrl: pasted.platformUrl, deviceId: 'x' },
      { ...pasted, deviceId: 'x'.repeat(129) },
      { ...pasted, extra: true },
    ];
    for (const body of bad) {
      expect(await rig.call('POST', '/api/console/platform/enrol', body)).toMatchObject({
        status: 400,
        json: { code: 'BAD_REQUEST' },
      });
    }
  });

  it("relays the client's refusals as 400 without echoing the token", async () => {
    const http = await rig.call('POST', '/api/console/platform/enrol', {
      ...pasted,
      platformUrl: 'http://platform.example',
    });
    expect(http).toEqual({ status: 400, json: { error: 'the platform URL must use https', code: 'BAD_REQUEST' } });
    const refused = await rig.call('POST', '/api/console/platform/enrol', { ...pasted, token: `${TOKEN}x` });
    expect(refused).toEqual({ status: 400, json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' } });
  });

  it('enrols, broadcasts the status on /ws without the token, and answers the status view', async () => {
    const { ws, frames, raw } = await rig.socket();
    const out = await rig.call('POST', '/api/console/platform/enrol', pasted);
    expect(out.status).toBe(200);
    expect(out.json).toMatchObject({ available: true, enrolled: true, online: true, deviceId: 'dev-1' });
    expect(Object.keys(out.json)).not.toContain('token');
    expect(await until(() => frames.some((f) => f['type'] === 'platform' && f['online'] === true), 2000)).toBe(true);
    expect(frames.find((f) => f['type'] === 'platform')).toMatchObject({ available: true, enrolled: true });
    expect(raw.join('\n')).not.toContain(TOKEN);
    expect((await rig.call('GET', '/api/console/platform')).json).toMatchObject({ enrolled: true, connected: true });
    ws.close();
  });

  it('forgets the identity; connect then needs a new enrolment', async () => {
    expect((await rig.call('DELETE', '/api/console/platform')).json).toMatchObject({ enrolled: false, deviceId: null });
    expect(await rig.call('POST', '/api/console/platform/connect')).toMatchObject({ status: 409 });
  });

  it('enrols with the owner session token, keeping it only when asked', async () => {
    const body = { platformUrl: 'https://platform.example', sessionToken: SESSION, name: 'desk' };
    for (const bad of [
      { ...body, keepSession: 'yes' },
      { ...body, name: '' },
      { ...body, deviceId: 'x' },
    ])
      expect(await rig.call('POST', '/api/console/platform/enrol-session', bad)).toMatchObject({ status: 400 });
    expect(
      await rig.call('POST', '/api/console/platform/enrol-session', { ...body, sessionToken: `${SESSION}x` }),
    ).toEqual({
      status: 400,
      json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' },
    });
    expect(
      (await rig.call('POST', '/api/console/platform/enrol-session', { ...body, keepSession: true })).json,
    ).toMatchObject({ enrolled: true, deviceId: 'dev-desk', ownerSession: 'stored' });
    rig.port.set(initial());
  });

  it('leaves enrolment and forgetting to the environment while ROBOT_PLATFORM_* decide', async () => {
    rig.port.set({ enrolled: true, identitySource: 'env' });
    expect(await rig.call('POST', '/api/console/platform/enrol', pasted)).toMatchObject({ status: 409 });
    expect(
      await rig.call('POST', '/api/console/platform/enrol-session', {
        platformUrl: 'https://platform.example',
        sessionToken: SESSION,
        name: 'desk',
      }),
    ).toMatchObject({ status: 409 });
    expect(await rig.call('DELETE', '/api/console/platform')).toMatchObject({ status: 409 });
    rig.port.set(initial());
  });

  it('makes the robot an endpoint device with the owner token as its bearer, which never comes back', async () => {
    const path = '/api/console/platform/enrol-endpoint';
    const body = {
      platformUrl: 'https://platform.example',
      sessionToken: SESSION,
      name: 'reachy',
      url: 'https://reachy.example.com/cockpit',
    };
    for (const bad of [
      [],
      'reachy',
      { ...body, url: 42 },
      { ...body, name: '' },
      { ...body, name: 'n'.repeat(65) },
      { ...body, secret: 'chosen-by-the-page' },
      { platformUrl: body.platformUrl, sessionToken: SESSION, name: 'reachy' },
    ])
      expect(await rig.call('POST', path, bad)).toMatchObject({ status: 400, json: { code: 'BAD_REQUEST' } });
    expect(await rig.call('POST', path, { ...body, url: 'http://reachy.example.com' })).toEqual({
      status: 400,
      json: { error: 'the robot URL must be https on a public host', code: 'BAD_REQUEST' },
    });
    const refused = await rig.call('POST', path, { ...body, sessionToken: `${SESSION}x` });
    expect(refused).toEqual({
      status: 400,
      json: { error: 'the platform refused [token] for [owner token]', code: 'BAD_REQUEST' },
    });
    rig.port.platformDown = true;
    expect(await rig.call('POST', path, body)).toMatchObject({ status: 503, json: { code: 'PLATFORM_UNREACHABLE' } });
    rig.port.platformDown = false;
    expect(rig.port.endpoints).toEqual([]);

    const created = await rig.call('POST', path, body);
    expect(created).toEqual({
      status: 200,
      json: {
        endpoint: {
          platformUrl: 'https://platform.example',
          deviceId: 'endpoint-reachy',
          url: 'https://reachy.example.com',
        },
      },
    });
    expect(JSON.stringify(created.json)).not.toContain(TEST_TOKEN);
    expect(rig.port.endpoints).toEqual([{ ...body, secret: TEST_TOKEN }]);
    // The pull-device identity is another matter: nothing changed there.
    expect((await rig.call('GET', '/api/console/platform')).json).toMatchObject({ enrolled: false });
  });
});
