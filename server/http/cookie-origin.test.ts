/**
 * The session cookie and pages of other origins (access-gate.ts): SameSite=Lax holds the cookie
 * back from other sites only, and another port of this host is the same site, so a page there
 * sends the owner's cookie along with a text/plain POST, which needs no CORS preflight. A write
 * whose Origin names such a page is refused (403) before its handler runs; the server's own pages,
 * ROBOT_ORIGIN, clients that send no Origin, reads and the bearer keep working.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { remoteRequest, startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';

const TUNNEL = 'https://robot.example.net';

let harness: Harness;
let session: string;

beforeAll(async () => {
  harness = await startHarness({ ROBOT_ORIGIN: TUNNEL });
  session = (await harness.cockpit.access.sessions.create({ credentialId: 'phone-passkey', ttlSeconds: 600 })).id;
});

afterAll(() => harness.close());

/** Turn-toward-speaker on or off as a browser's simple request carrying the cookie, with `headers` added. */
function switchDoa(enabled: boolean, headers: Record<string, string>) {
  return remoteRequest(`${harness.url}/api/doa`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', cookie: `cockpit_session=${session}`, ...headers },
    body: JSON.stringify({ enabled }),
  });
}

async function doaEnabled(): Promise<boolean> {
  return ((await (await harness.authed('/api/doa')).json()) as { enabled: boolean }).enabled;
}

it('refuses a page of another origin (another port of this host among them) the cookie for a write', async () => {
  const before = await doaEnabled();
  for (const origin of ['http://127.0.0.1:9999', 'http://localhost:5000', 'https://evil.example', 'null']) {
    const answer = await switchDoa(!before, { origin });
    expect(answer.status, origin).toBe(403);
    expect(JSON.parse(answer.body), origin).toMatchObject({ code: 'ORIGIN_REFUSED' });
  }
  expect(await doaEnabled()).toBe(before);
  // Nor may it sign the owner out: a public route, but the cookie is what it would act on.
  const logout = await remoteRequest(`${harness.url}/api/auth/logout`, {
    method: 'POST',
    headers: { cookie: `cockpit_session=${session}`, origin: 'http://127.0.0.1:9999' },
  });
  expect(logout.status).toBe(403);
  expect(harness.cockpit.access.sessions.validate(session)).toBeDefined();
});

it('keeps the cookie for its own pages, ROBOT_ORIGIN, clients without an Origin and reads', async () => {
  const before = await doaEnabled();
  expect((await switchDoa(!before, { origin: harness.url })).status).toBe(200);
  expect(await doaEnabled()).toBe(!before);
  expect((await switchDoa(before, { origin: TUNNEL })).status).toBe(200);
  expect(await doaEnabled()).toBe(before);
  expect((await switchDoa(!before, {})).status).toBe(200);
  expect(await doaEnabled()).toBe(!before);
  const read = await remoteRequest(`${harness.url}/api/doa`, {
    headers: { cookie: `cockpit_session=${session}`, origin: 'http://127.0.0.1:9999' },
  });
  expect(read.status).toBe(200);
  // The bearer is no ambient credential: a page can only send it if it holds it.
  const keyed = await remoteRequest(`${harness.url}/api/doa`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${TEST_TOKEN}`,
      origin: 'https://evil.example',
    },
    body: JSON.stringify({ enabled: before }),
  });
  expect(keyed.status).toBe(200);
  expect(await doaEnabled()).toBe(before);
});
