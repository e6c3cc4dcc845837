import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

describe('endpoint enrolment', () => {
  it('creates this robot as an endpoint device the platform dials, with no device token', async () => {
    h = await startHarness({ enrolled: false });
    const out = await h.client.enrolEndpoint({
      platformUrl: h.emu.url,
      sessionToken: h.owner.session,
      name: 'reachy',
      url: 'https://reachy.example.com/cockpit',
      secret: 'cockpit-bearer',
    });
    expect(out).toMatchObject({ ok: true, value: { platformUrl: h.emu.url, deviceId: expect.any(String) } });
    const listed = await h.owned('GET', '/api/devices');
    const entry = (listed.body.devices as Array<Record<string, unknown>>).find((d) => d.name === 'reachy');
    expect(entry).toMatchObject({ kind: 'endpoint', url: 'https://reachy.example.com' });
    expect(h.client.status().enrolled).toBe(false);
  });

  it('refuses what the platform would refuse before asking it: a LAN or local URL, an empty or huge secret', async () => {
    h = await startHarness({ enrolled: false });
    const base = { platformUrl: h.emu.url, sessionToken: h.owner.session, name: 'reachy', secret: 's' };
    const before = h.emu.requests.length;
    for (const bad of [
      { url: 'http://reachy.example.com' },
      { url: 'https://192.168.1.20' },
      { url: 'https://reachy.local' },
      { url: 'https://localhost:8443' },
      { url: 'https://reachy' },
      { url: 'https://reachy.example.com', secret: '' },
      { url: 'https://reachy.example.com', secret: 's'.repeat(4097) },
    ])
      expect(await h.client.enrolEndpoint({ ...base, ...bad })).toMatchObject({
        ok: false,
        failure: { kind: 'bad_request' },
      });
    expect(h.emu.requests.length).toBe(before);
    expect(
      await h.client.enrolEndpoint({ ...base, sessionToken: 'sess_wrong-token', url: 'https://reachy.example.com' }),
    ).toMatchObject({ ok: false, failure: { kind: 'unauthorized' } });
  });
});
