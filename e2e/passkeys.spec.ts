/**
 * Passkeys against a real cockpit, with the Chromium virtual authenticator: the first enrolment
 * (trust on first use), sign-in and sign-out, a second enrolment that needs the enrolment token,
 * and the passkey list of the security page. Pages open on `localhost`: an IP address cannot be
 * a WebAuthn relying party, and localhost is a secure context over plain http.
 */
import { expect, test } from './fixtures/cockpit.ts';
import { storedToken } from './pages/browser.ts';
import { api } from './pages/cockpit-api.ts';
import { addVirtualAuthenticator, enrolFirstPasskey, sessionCookie } from './pages/passkeys.ts';
import { attachScreenshot } from './pages/screenshots.ts';

test('the first passkey is enrolled over http://localhost, then signs out and in again', async ({
  page,
  cockpit,
}, testInfo) => {
  const device = await addVirtualAuthenticator(page);
  await page.goto(`${cockpit.localUrl}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await attachScreenshot(page, testInfo, 'first-passkey', 375);

  await enrolFirstPasskey(page, cockpit.localUrl, 'Laptop');
  expect(await device.count()).toBe(1);
  // Signed in by the session cookie alone: no token in the page, the socket authenticated by it.
  expect(await storedToken(page, cockpit.localUrl)).toBeNull();
  const cookie = await sessionCookie(page.context());
  expect(cookie).toBeTruthy();
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  expect((await api(cockpit.url, '/api/auth/status', { cookie })).body).toMatchObject({ who: 'passkey', passkeys: 1 });

  // A control with the cookie session: the browser's same-origin Origin header lets it through,
  // and the receipt names the passkey.
  await page.getByRole('button', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('list', { name: /Event receipts/ })).toContainText('home: neutral pose');
  await expect(
    page
      .getByRole('list', { name: /Event receipts/ })
      .getByText('passkey')
      .first(),
  ).toBeVisible();

  // The window is phone-sized since the screenshot: there, signing out is in Settings › About.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'About' }).click();
  // The page forgets the session at once and then tells the cockpit: the cookie is dead once the
  // cockpit has answered the logout, not when the page says so.
  const loggedOut = page.waitForResponse((res) => res.url().endsWith('/api/auth/logout'));
  await page.getByRole('button', { name: 'Sign out of this browser' }).click();
  await expect(page.getByText('You signed out.')).toBeVisible();
  expect((await loggedOut).status()).toBe(200);
  expect((await api(cockpit.url, '/api/state', { cookie })).status).toBe(401);

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');

  // A reload keeps the session: the page asks the cockpit, which knows the cookie.
  await page.reload();
  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
});

test.describe('with an enrolment token', () => {
  const REG_TOKEN = 'enrol-e2e-0123456789';
  test.use({ cockpitEnv: { ROBOT_REG_TOKEN: REG_TOKEN } });

  test('a second passkey is refused without the enrolment token and accepted with it', async ({
    page,
    browser,
    browserErrors,
    cockpit,
  }, testInfo) => {
    await addVirtualAuthenticator(page);
    await enrolFirstPasskey(page, cockpit.localUrl, 'Owner laptop');

    // Without the token the cockpit refuses to start an enrolment (as a script would see it).
    const closed = await api(cockpit.localUrl, '/api/auth/register/begin', { method: 'POST', body: {} });
    expect(closed).toMatchObject({ status: 403, body: { code: 'AUTH_FORBIDDEN' } });

    const second = await browser.newContext();
    try {
      const phone = await second.newPage();
      browserErrors.watch(phone);
      const phoneDevice = await addVirtualAuthenticator(phone);
      await phone.goto(`${cockpit.localUrl}/`);
      // A passkey exists: no first-use offer, sign-in instead, the token form behind a disclosure.
      await expect(phone.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      await expect(phone.getByRole('heading', { name: 'Create the first passkey for this robot' })).toHaveCount(0);
      await phone.getByText('Add a passkey with the enrolment token').click();

      await phone.getByRole('button', { name: 'Add passkey' }).click();
      await expect(phone.getByText('Enter the enrolment token.')).toBeVisible();

      // A wrong token: the cockpit answers 403, which Chromium logs; the page says it plainly.
      browserErrors.expect(/status of 403/);
      await phone.getByLabel('Enrolment token').fill('not-the-token');
      await phone.getByRole('button', { name: 'Add passkey' }).click();
      await expect(phone.getByText('The cockpit refused this enrolment token.')).toBeVisible();
      expect(await phoneDevice.count()).toBe(0);
      await attachScreenshot(phone, testInfo, 'enrolment-token-refused', 375);

      await phone.getByLabel('Enrolment token').fill(REG_TOKEN);
      await phone.getByLabel('Name for this passkey').fill('Second phone');
      await phone.getByRole('button', { name: 'Add passkey' }).click();
      await expect(phone.getByText('Simulated robot')).toBeVisible();
      expect(await phoneDevice.count()).toBe(1);
    } finally {
      await second.close();
    }

    // The owner sees both on the security page, renames one and deletes the other.
    // Settings opens on its first section, Security and passkeys.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
    const list = page.getByRole('list', { name: 'Enrolled passkeys' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list).toContainText('Owner laptop');
    await expect(list).toContainText('Second phone');
    await expect(list).toContainText(/Created .+ · last used/);

    // Escape cancels a rename (and is not taken as the stop key there); focus goes back.
    await page.getByRole('button', { name: 'Rename Second phone' }).click();
    await expect(page.getByLabel('New name for “Second phone”')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByLabel('New name for “Second phone”')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Rename Second phone' })).toBeFocused();
    await expect(page.getByText('Robot stopped')).toHaveCount(0);

    await page.keyboard.press('Enter');
    await page.getByLabel('New name for “Second phone”').fill('Kitchen phone');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(list).toContainText('Kitchen phone');

    await page.getByRole('button', { name: 'Delete Kitchen phone' }).click();
    await expect(page.getByText('Delete “Kitchen phone”?')).toBeVisible();
    await page.getByRole('button', { name: 'Keep it' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Delete Kitchen phone' }).click();
    await page.getByRole('button', { name: 'Delete passkey' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).not.toContainText('Kitchen phone');
    await attachScreenshot(page, testInfo, 'security', 1280);
    await attachScreenshot(page, testInfo, 'security', 375);
  });
});
