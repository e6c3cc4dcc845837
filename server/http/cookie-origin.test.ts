/**
 * The session cookie and pages of other origins (access-gate.ts): SameSite=Lax holds the cookie
 * back from other sites only, and another port of this host is the same site, so a page there
 * sends the owner's cookie along with a text/plain POST, which needs no CORS preflight. A write
 * whose Origin names such a page is refused (403) before its handler runs; the server's own pages,
 * ROBOT_ORIGIN, clients that send no Origin, reads and the bearer keep working. A read such a page
 * embeds (an image, a frame) sends no Origin; the browser's Fetch Metadata names the page instead.
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

/** A read as the browser sends it for a page's `<img>`: no Origin, the page named by Fetch Metadata. */
function embeddedRead(path: string, site: string, extra: Record<string, string> = {}, localAddress?: string) {
  return remoteRequest(`${harness.url}${path}`, {
    headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image', ...extra },
    ...(localAddress ? { localAddress } : {}),
  });
}

it('refuses a page of another origin an embedded read on the cookie or loopback trust, which sends no Origin', async () => {
  const cookie = { cookie: `cockpit_session=${session}` };
  for (const site of ['same-site', 'cross-site']) {
    for (const path of ['/api/stream', '/api/state']) {
      const viaCookie = await embeddedRead(path, site, cookie);
      expect(viaCookie.status, `${site} ${path}`).toBe(403);
      expect(JSON.parse(viaCookie.body)).toMatchObject({ code: 'ORIGIN_REFUSED' });
      // Any site the owner opens in a browser on the robot's computer reaches 127.0.0.1.
      const viaLoopback = await embeddedRead(path, site, { host: new URL(harness.url).host }, '127.0.0.1');
      expect(viaLoopback.status, `${site} ${path} loopback`).toBe(403);
    }
  }
});

it('keeps embedded reads for its own pages, ROBOT_ORIGIN, links followed, browsers without Fetch Metadata and the token', async () => {
  const cookie = { cookie: `cockpit_session=${session}` };
  expect((await embeddedRead('/api/state', 'same-origin', cookie)).status).toBe(200);
  expect((await embeddedRead('/api/state', 'none', cookie)).status).toBe(200);
  expect((await embeddedRead('/api/state', 'cross-site', { ...cookie, referer: `${TUNNEL}/` })).status).toBe(200);
  const link = { ...cookie, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  expect((await embeddedRead('/api/state', 'cross-site', link)).status).toBe(200);
  // A frame is a navigation too, but one another page embeds.
  const frame = { ...cookie, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' };
  expect((await embeddedRead('/api/state', 'cross-site', frame)).status).toBe(403);
  const old = await remoteRequest(`${harness.url}/api/state`, { headers: cookie });
  expect(old.status).toBe(200);
  // A key is no ambient credential: a page can only send it if it holds it.
  for (const keyed of [
    await embeddedRead(`/api/snapshot.jpg?token=${TEST_TOKEN}`, 'cross-site'),
    await embeddedRead('/api/state', 'cross-site', { authorization: `Bearer ${TEST_TOKEN}` }),
  ]) {
    expect(keyed.status).not.toBe(403);
    expect(keyed.status).toBeLessThan(500);
  }
});
