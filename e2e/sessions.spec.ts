/**
 * Passkey sessions over cockpit restarts: a session outlives a restart (sessions are stored
 * server-side), and an expired one is refused. ROBOT_SESSION_TTL cannot be shorter than a
 * minute, so expiry is made honestly instead: the cockpit is stopped, the session's expiry in
 * `<dataDir>/sessions.json` (server/auth/sessions-file.ts) is moved into the past, and the
 * cockpit is started again over the same data folder.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';
import { addVirtualAuthenticator, enrolFirstPasskey, sessionCookie } from './pages/passkeys.ts';
import { stepPageTimeUntil } from './pages/page-time.ts';

/** While the cockpit is down the page's socket retries, and Chromium logs each failed attempt. */
const FAILED_RECONNECT = /WebSocket connection to '.*\/ws' failed/;
/** While the cockpit is halted on purpose (and then refuses the ended session), cards' calls fail. */
const FAILED_LOAD = /Failed to load resource: (net::ERR_|the server responded with a status of 401)/;

test('a passkey session survives a restart of the cockpit', async ({ page, cockpit, browserErrors }) => {
  browserErrors.allow(FAILED_RECONNECT);
  browserErrors.allow(FAILED_LOAD);
  // Page time is the test's: once the cockpit is back, the socket's pending retry (up to 12 s of
  // backoff away, renderer/src/lib/api/backoff.ts) is brought forward instead of waited for.
  await page.clock.install();
  await addVirtualAuthenticator(page);
  await enrolFirstPasskey(page, cockpit.localUrl, 'Laptop');
  const pill = page.getByRole('group', { name: 'Connection' });
  await expect(pill).toContainText('Live');
  const cookie = await sessionCookie(page.context());
  // This test is about the session. The page's cards load their code and stylesheets lazily, and
  // a busy machine showed the restart cutting one off mid-load (a page error of its own, "Unable
  // to preload CSS"): they finish loading before the cockpit goes away, as in the test below.
  await page.waitForLoadState('networkidle');

  await cockpit.restart();

  // The open page reconnects with its cookie, and a fresh load is still signed in.
  await stepPageTimeUntil(
    page,
    async () => (await pill.textContent())?.includes('Live') ?? false,
    'the page is live again',
  );
  await page.reload();
  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
  expect((await api(cockpit.url, '/api/state', { cookie })).status).toBe(200);
});

test('an expired session is refused and the page goes back to sign-in', async ({ page, cockpit, browserErrors }) => {
  browserErrors.allow(FAILED_RECONNECT);
  browserErrors.allow(FAILED_LOAD);
  await page.clock.install();
  await addVirtualAuthenticator(page);
  await enrolFirstPasskey(page, cockpit.localUrl, 'Laptop');
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  const cookie = await sessionCookie(page.context());
  if (!cookie) throw new Error('no session cookie after enrolment');
  // Let the cards' first calls finish before the cockpit goes away under them.
  await page.waitForLoadState('networkidle');

  await cockpit.halt();
  const file = join(cockpit.dataDir, 'sessions.json');
  const sessions = JSON.parse(await readFile(file, 'utf8')) as { sessions: { digest: string; expiresAt: number }[] };
  const digest = createHash('sha256').update(cookie, 'utf8').digest('base64url');
  const mine = sessions.sessions.find((s) => s.digest === digest);
  if (!mine) throw new Error('the cookie has no session in sessions.json');
  mine.expiresAt = Date.now() - 60_000;
  await writeFile(file, JSON.stringify(sessions), { mode: 0o600 });
  await cockpit.resume();

  // The open page's socket comes back, is refused (4401), and the page asks to sign in again,
  // offering the passkey once it has the cockpit's auth status.
  const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
  await stepPageTimeUntil(page, () => passkey.isVisible(), 'the sign-in page offers the passkey');
  await expect(page.getByText('Your passkey session has ended.')).toBeVisible();
  // The cookie alone opens nothing, even from this machine.
  expect((await api(cockpit.localUrl, '/api/state', { cookie })).status).toBe(401);
  // A new load of the page lands on sign-in too.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Simulated robot')).toHaveCount(0);
});
