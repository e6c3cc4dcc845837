/**
 * Setup and fleet routes on a real cockpit (loopback-bound, so mDNS stays off): the stored name
 * in health, the guide's state, add-by-address kept across restarts, fingerprint changes flagged
 * and trusted, and clear 4xx answers for bad input.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FleetPeer, FleetView, SetupView } from '../../contract/discovery.ts';
import type { Health } from '../../contract/health.ts';
import { loadConfig } from '../../config.ts';
import { startCockpit } from '../../index.ts';
import { silentLog } from '../../log.ts';
import { startHarness, TEST_TOKEN, type Harness } from '../../testing/cockpit-harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
});
afterEach(async () => {
  await h.close();
});

const FP_A = Array.from({ length: 32 }, () => 'AA').join(':');
const FP_B = Array.from({ length: 32 }, () => 'BB').join(':');

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;

const send = (method: string, path: string, body?: unknown) =>
  h.authed(path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('setup', () => {
  it('starts with the guide open and the host name, says why advertising is off, and stores a name', async () => {
    const first = await json<SetupView>(h.authed('/api/console/setup'));
    expect(first).toMatchObject({ named: false, guide: 'open', advertising: { on: false } });
    expect(first.advertising.detail).toMatch(/bound to 127\.0\.0\.1/);

    const named = await send('PUT', '/api/console/setup', { name: '  Desk robot  ' });
    expect(named.status).toBe(200);
    expect(await named.json()).toMatchObject({ name: 'Desk robot', named: true, guide: 'open' });
    const health = await json<Health>(h.get('/api/health'));
    expect(health.identity).toEqual({ name: 'Desk robot', kind: 'desktop', https_port: null, fingerprint: null });

    expect(await (await send('PUT', '/api/console/setup', { guide: 'dismissed' })).json()).toMatchObject({ guide: 'dismissed', name: 'Desk robot' });
  });

  it('refuses bad names and states with a 400 naming the problem', async () => {
    for (const body of [{ name: '' }, { name: 'x'.repeat(64) }, { name: 'é'.repeat(32) }, { name: 'bad\u0007bell' }, { name: 5 }, { guide: 'later' }, { other: 1 }, []]) {
      const res = await send('PUT', '/api/console/setup', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST' });
    }
  });

  it('needs a key', async () => {
    expect((await h.get('/api/console/setup', { authorization: 'Bearer wrong-token-000000000000' })).status).toBe(401);
  });
});

describe('fleet', () => {
  it('adds a robot by address, flags a changed fingerprint until trusted, and forgets it', async () => {
    const added = await send('POST', '/api/console/fleet/peers', { host: '192.168.1.30' });
    expect(added.status).toBe(201);
    const peer = await json<FleetPeer>(added);
    expect(peer).toMatchObject({ source: 'manual', host: '192.168.1.30', port: 8097, httpsPort: 8098, fingerprint: null });
    expect((await send('POST', '/api/console/fleet/peers', { host: '192.168.1.30' })).status).toBe(409);

    const seen = `/api/console/fleet/peers/${peer.id}/fingerprint`;
    expect(await (await send('POST', seen, { fingerprint: FP_A.toLowerCase() })).json()).toMatchObject({ fingerprint: FP_A, fingerprintChange: null });
    const changed = await json<FleetPeer>(send('POST', seen, { fingerprint: FP_B }));
    expect(changed.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
    const trusted = await json<FleetPeer>(send('POST', `/api/console/fleet/peers/${peer.id}/trust`));
    expect(trusted).toMatchObject({ fingerprint: FP_B, fingerprintChange: null });

    expect((await send('DELETE', `/api/console/fleet/peers/${peer.id}`)).status).toBe(200);
    expect((await json<FleetView>(h.authed('/api/console/fleet'))).peers).toEqual([]);
    expect((await send('DELETE', `/api/console/fleet/peers/${peer.id}`)).status).toBe(404);
  });

  it('refuses bad addresses, ports and fingerprints with a 400', async () => {
    for (const body of [{}, { host: '' }, { host: 'http://x' }, { host: '<script>' }, { host: 'a b' }, { host: '10.0.0.1', port: 0 }, { host: '10.0.0.1', port: '80' }, { host: 'fe80::1%eth0' }]) {
      const res = await send('POST', '/api/console/fleet/peers', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const peer = await json<FleetPeer>(send('POST', '/api/console/fleet/peers', { host: 'Robot.Local', port: 9000 }));
    expect(peer).toMatchObject({ host: 'robot.local', port: 9000 });
    expect((await send('POST', `/api/console/fleet/peers/${peer.id}/fingerprint`, { fingerprint: 'AB:CD' })).status).toBe(400);
    expect((await send('POST', '/api/console/fleet/peers/nope/trust')).status).toBe(404);
  });

  it('keeps robots added by address across a restart', async () => {
    expect((await send('POST', '/api/console/fleet/peers', { host: '10.1.2.3', port: 8100, httpsPort: null })).status).toBe(201);
    const config = loadConfig({
      env: { ROBOT_HTTPS_PORT: '0', ROBOT_TRACK_AUTOSTART: '0' },
      flags: { sim: true, port: '0', host: '127.0.0.1', dataDir: h.dataDir },
    });
    const again = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN });
    try {
      const view = await json<FleetView>(fetch(`${again.url}/api/console/fleet`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }));
      expect(view.peers).toMatchObject([{ host: '10.1.2.3', port: 8100, httpsPort: null, source: 'manual' }]);
      expect(view).toMatchObject({ browsing: false, advertising: { on: false } });
    } finally {
      await again.stop();
    }
  });
});

describe('public health for other cockpits', () => {
  it('may be read from any origin, without credentials', async () => {
    const res = await h.get('/api/health', { origin: 'http://192.168.1.40:8097' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await json<Health>(res)).identity).toMatchObject({ kind: 'desktop' });
  });
});
