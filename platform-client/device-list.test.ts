/**
 * GET /api/devices as the platform answers it: capabilities stored and listed as a JSON string,
 * last_seen in epoch seconds, platform "" when none was given (checked against a running copy of
 * the platform). The contract names the fields without their types, so the array and ISO forms
 * the emulator answers are read too.
 */
import { describe, expect, it } from 'vitest';
import { createPlatformHttp } from './platform-http.ts';
import { createSessionClient } from './session-client.ts';
import type { FetchLike } from './types.ts';

function listing(devices: unknown[]) {
  const fetch: FetchLike = async () =>
    new Response(JSON.stringify({ ok: true, devices }), { headers: { 'content-type': 'application/json' } });
  return createSessionClient(
    createPlatformHttp({ baseUrl: () => 'https://platform.example', fetch }),
    'tcli_x',
  ).listDevices();
}

describe('the owner device list', () => {
  it("reads the platform's own shape: capabilities as JSON text, last_seen in seconds, an empty platform", async () => {
    const out = await listing([
      {
        id: 'e74baa9e',
        name: 'cockpit-real',
        platform: '',
        kind: 'daemon',
        capabilities: '["invoke","notify","say"]',
        last_seen: 1795637456,
        created_at: 1795637452,
        online: true,
        lan_url: 'http://192.168.1.50:8097',
      },
    ]);
    expect(out).toEqual({
      ok: true,
      value: [
        {
          id: 'e74baa9e',
          name: 'cockpit-real',
          kind: 'daemon',
          platform: null,
          online: true,
          lastSeen: new Date(1795637456 * 1000).toISOString(),
          capabilities: ['invoke', 'notify', 'say'],
        },
      ],
    });
  });

  it('reads arrays and ISO times too, and drops what is not a list of strings', async () => {
    const out = await listing([
      { id: 'a', name: 'phone', kind: 'daemon', capabilities: ['say', 3], last_seen: '2026-11-25T20:00:00.000Z' },
      { id: 'b', name: 'ring', kind: 'endpoint', capabilities: '{not json', last_seen: null },
    ]);
    expect(out.ok && out.value.map((d) => [d.capabilities, d.lastSeen])).toEqual([
      [['say'], '2026-11-25T20:00:00.000Z'],
      [[], null],
    ]);
  });

  it('skips rows that are not objects and reads a last_seen past what a date holds as unknown, where it threw', async () => {
    const out = await listing([null, 7, 'phone', [], { id: 'c', name: 'far future', last_seen: 1e300 }]);
    expect(out).toMatchObject({ ok: true, value: [{ id: 'c', name: 'far future', lastSeen: null }] });
  });
});
