import { describe, expect, it } from 'vitest';
import type { HttpClient, RequestOptions } from './http-client.ts';
import { createPlatformApi, readNotice, readPlatformStatus } from './platform-api.ts';

const documented = {
  available: true,
  enrolled: true,
  identitySource: 'stored',
  platformUrl: 'https://platform.example',
  deviceId: '3f2c9a1e',
  connected: true,
  online: true,
  lastHeartbeatAt: 1767225600000,
  envelopesHandled: 3,
  lastError: null,
  unread: 0,
  halted: null,
  tokenNotice: null,
  ownerSession: 'stored',
  firmware: {
    state: 'disabled',
    channel: 'stable',
    currentVersion: null,
    available: null,
    staged: null,
    lastCheckedAt: null,
    message: null,
    installAllowed: false,
    installer: 'hook /usr/local/bin/install-bundle',
  },
};

describe('readPlatformStatus', () => {
  it('reads the documented status', () => {
    expect(readPlatformStatus(documented)).toEqual(documented);
  });

  it('reads a frame (no `available` flag) as available, and the cockpit without a client as not', () => {
    const { available: _available, ...frame } = documented;
    expect(readPlatformStatus({ type: 'platform', ...frame })?.available).toBe(true);
    expect(readPlatformStatus({ enrolled: false, available: false })).toEqual({ available: false, enrolled: false });
  });

  it('keeps errors and halts, and refuses what is not a status', () => {
    const status = readPlatformStatus({
      ...documented,
      lastError: { kind: 'transport', message: 'no route', at: 5 },
      halted: { reason: 'token_rejected', since: 6, message: 'the platform refused the token' },
    });
    expect(status).toMatchObject({
      lastError: { kind: 'transport', message: 'no route', at: 5 },
      halted: { reason: 'token_rejected', since: 6 },
    });
    expect(readPlatformStatus({ online: true })).toBeNull();
  });

  it('reads the refused-token notice and the halt reasons of a rotation, offering adopt only when said', () => {
    const rotated = readPlatformStatus({
      ...documented,
      halted: { reason: 'token_rotated', since: 7, message: 'rotated' },
      tokenNotice: { kind: 'rotated', since: 7, message: 'rotated by the owner', offer: 'adopt' },
    });
    expect(rotated).toMatchObject({
      halted: { reason: 'token_rotated' },
      tokenNotice: { kind: 'rotated', since: 7, message: 'rotated by the owner', offer: 'adopt' },
    });
    const odd = readPlatformStatus({
      ...documented,
      halted: { reason: 'exploded', since: 1, message: 'm' },
      tokenNotice: { kind: 'refused', since: 1, message: 'm', offer: 'anything' },
    });
    expect(odd).toMatchObject({ halted: { reason: 'token_rejected' }, tokenNotice: { offer: 'enrol' } });
    expect(readPlatformStatus({ ...documented, tokenNotice: { kind: 'weird' } })).toMatchObject({ tokenNotice: null });
  });

  it('reads the owner session and the install choices defensively', () => {
    const status = readPlatformStatus({
      ...documented,
      ownerSession: 'the-token-itself',
      firmware: { ...documented.firmware, installAllowed: 'yes', installer: 42 },
    });
    expect(status).toMatchObject({ ownerSession: null, firmware: { installAllowed: false, installer: null } });
    const env = readPlatformStatus({
      ...documented,
      ownerSession: 'env',
      firmware: { ...documented.firmware, installAllowed: true },
    });
    expect(env).toMatchObject({ ownerSession: 'env', firmware: { installAllowed: true } });
  });

  it('drops a wired status whose firmware part it cannot read', () => {
    expect(readPlatformStatus({ ...documented, firmware: null })).toBeNull();
    expect(readPlatformStatus({ ...documented, firmware: { ...documented.firmware, state: 'exploded' } })).toBeNull();
  });
});

describe('createPlatformApi', () => {
  function recorder(answer: unknown) {
    const calls: Array<{ via: string; path: string; options: RequestOptions | undefined }> = [];
    const client = (via: string): HttpClient => ({
      request: <T>(path: string, options?: RequestOptions) => {
        calls.push({ via, path, options });
        return Promise.resolve({ ok: true as const, status: 200, data: answer as T });
      },
    });
    return { calls, api: createPlatformApi(client('http'), client('slow')) };
  }

  it('sends the new calls to their routes, the ones that wait for the platform on the slow client', async () => {
    const { calls, api } = recorder(documented);
    const enrolled = await api.enrolWithSession({
      platformUrl: 'https://p.example',
      sessionToken: 's',
      name: 'Robot Cockpit',
      keepSession: true,
    });
    expect(enrolled.ok && enrolled.data).toEqual(documented);
    await api.setFirmware({ installAllowed: true });
    await api.setOwnerSession('owner-secret');
    await api.forgetOwnerSession();
    await api.adopt();
    expect(calls.map((c) => [c.via, c.options?.method, c.path, c.options?.body])).toEqual([
      [
        'slow',
        'POST',
        '/api/console/platform/enrol-session',
        { platformUrl: 'https://p.example', sessionToken: 's', name: 'Robot Cockpit', keepSession: true },
      ],
      ['http', 'PUT', '/api/console/platform/firmware', { installAllowed: true }],
      ['slow', 'PUT', '/api/console/platform/owner-session', { token: 'owner-secret' }],
      ['http', 'DELETE', '/api/console/platform/owner-session', undefined],
      ['slow', 'POST', '/api/console/platform/adopt', undefined],
    ]);
  });

  it('adds an endpoint device on the slow client and reads what the cockpit created', async () => {
    const created = { endpoint: { platformUrl: 'https://p.example', deviceId: 'd-1', url: 'https://r.example' } };
    const { calls, api } = recorder(created);
    const input = { platformUrl: 'https://p.example', sessionToken: 's', name: 'r', url: 'https://r.example/x' };
    const out = await api.enrolEndpoint(input);
    expect(out.ok && out.data).toEqual(created.endpoint);
    expect(calls.map((c) => [c.via, c.options?.method, c.path, c.options?.body])).toEqual([
      ['slow', 'POST', '/api/console/platform/enrol-endpoint', input],
    ]);
    const odd = await recorder({ endpoint: { deviceId: 'd-1' } }).api.enrolEndpoint(input);
    expect(odd.ok && odd.data).toBeNull();
  });
});

describe('readNotice', () => {
  it('needs a title and defaults the rest', () => {
    expect(readNotice({ type: 'notify', title: 'Hello' })).toEqual({ title: 'Hello', body: '', tag: '', url: '' });
    expect(readNotice({ title: '' })).toBeNull();
  });
});
