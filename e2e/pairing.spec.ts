/**
 * Pairing a phone: the signed-in owner shows a one-time link as a QR code, a second browser
 * context (its own virtual authenticator: another device) opens the link and enrols its own
 * passkey with the code, and the code works only once.
 */
import QRCode from 'qrcode';
import { expect, test } from './fixtures/cockpit.ts';
import { storedToken } from './pages/browser.ts';
import { api } from './pages/cockpit-api.ts';
import { addVirtualAuthenticator, enrolFirstPasskey } from './pages/passkeys.ts';
import { attachScreenshot } from './pages/screenshots.ts';

test('a second browser pairs through the QR link and gets its own passkey', async ({
  page,
  browser,
  browserErrors,
  cockpit,
}, testInfo) => {
  // The desktop page's time is the test's: its 4 s watch for a new passkey is brought forward
  // once the phone has one, instead of being waited out.
  await page.clock.install();
  await addVirtualAuthenticator(page);
  await enrolFirstPasskey(page, cockpit.localUrl, 'Desk');
  // Settings opens on its first section, Security and passkeys.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Show a pairing link' }).click();

  const qr = page.getByRole('img', { name: 'QR code of the pairing link' });
  await expect(qr).toBeVisible();
  const link = await page.getByLabel('Pairing link').inputValue();
  expect(link.startsWith(`${cockpit.localUrl}/?pair=`)).toBe(true);
  // The QR code carries exactly that link: the same library draws the same SVG from it.
  const svg = await QRCode.toString(link, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  expect(await qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
  await expect(page.getByText(/Valid for [45]:\d\d · works once/)).toBeVisible();
  await attachScreenshot(page, testInfo, 'pairing', 1280);
  await attachScreenshot(page, testInfo, 'pairing', 375);

  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    browserErrors.watch(phone);
    const phoneDevice = await addVirtualAuthenticator(phone);
    await phone.goto(link);
    await expect(phone.getByRole('heading', { name: 'Add a passkey for this device' })).toBeVisible();
    // The single-use code leaves the address bar at once.
    await expect(phone).toHaveURL(`${cockpit.localUrl}/`);
    await attachScreenshot(phone, testInfo, 'pairing-phone', 375);
    await phone.getByLabel('Name for this passkey').fill('Phone');
    await phone.getByRole('button', { name: 'Add passkey' }).click();
    await expect(phone.getByText('Simulated robot')).toBeVisible();
    await expect(phone.getByRole('group', { name: 'Connection' })).toContainText('Live');
    expect(await phoneDevice.count()).toBe(1);
    expect(await storedToken(phone, cockpit.localUrl)).toBeNull();
  } finally {
    await other.close();
  }

  // The desktop notices the new passkey while its link is shown, at its next watch.
  await page.clock.fastForward(4000);
  await expect(page.getByText('Paired: “Phone” was added.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Enrolled passkeys' }).getByRole('listitem')).toHaveCount(2);

  // The code is spent: a second use is refused.
  const code = new URL(link).searchParams.get('pair');
  const again = await api(cockpit.localUrl, '/api/auth/register/begin', {
    method: 'POST',
    body: { pairingCode: code },
  });
  expect(again).toMatchObject({ status: 403, body: { code: 'AUTH_FORBIDDEN' } });
});
