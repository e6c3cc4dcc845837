/**
 * Where browsers refuse passkeys the sign-in page says why and keeps the owner token: on a raw IP
 * address (no relying party can be an IP), and over plain http on a network name (not a secure
 * context). Both link to the trust page, where a device installs the robot's certificate.
 */
import { hostname } from 'node:os';
import { expect, test } from './fixtures/cockpit.ts';
import { attachScreenshot } from './pages/screenshots.ts';

test.use({ cockpitHttps: true });

/** The trust page (server/auth/trust-page.ts) names no icon, so Chromium asks for /favicon.ico and logs the 404. */
const TRUST_PAGE_FAVICON = /status of 404 .*\/favicon\.ico/;
/** The cockpit sends Cross-Origin-Opener-Policy on every answer; over plain http Chromium ignores it, and says so. */
const COOP_IGNORED = /Cross-Origin-Opener-Policy header has been ignored/;

test('on a raw IP address the page explains passkeys cannot work and the token still does', async ({
  page,
  cockpit,
  browserErrors,
}, testInfo) => {
  browserErrors.allow(TRUST_PAGE_FAVICON);
  await page.goto(`${cockpit.url}/`);
  await expect(page.getByRole('heading', { name: 'Passkeys need the robot’s name, not its address' })).toBeVisible();
  await expect(page.getByText('127.0.0.1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /passkey/i })).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'ip-address', 375);

  await page.getByRole('link', { name: 'Open the trust page' }).click();
  await expect(page.getByRole('heading', { name: 'Trust this robot' })).toBeVisible();
  await page.goBack();
  await page.getByLabel('Owner token').fill(cockpit.token);
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await expect(page.getByText('Simulated robot')).toBeVisible();
});

test('over plain http on a network name the page asks for HTTPS', async ({
  cockpit,
  playwright,
  launchOptions,
  browserErrors,
}, testInfo) => {
  const port = new URL(cockpit.url).port;
  // This machine's mDNS name, as a phone on the LAN would use it (the cockpit answers only to
  // its own names); Chromium is told where it resolves, since no mDNS runs here.
  const lanName = `${hostname().split('.')[0]?.toLowerCase()}.local`;
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${lanName} 127.0.0.1`],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    browserErrors.watch(page);
    browserErrors.allow(TRUST_PAGE_FAVICON);
    browserErrors.allow(COOP_IGNORED);
    await page.goto(`http://${lanName}:${port}/`);
    expect(await page.evaluate('window.isSecureContext')).toBe(false);
    await expect(page.getByRole('heading', { name: 'Passkeys need HTTPS' })).toBeVisible();
    await expect(page.getByRole('button', { name: /passkey/i })).toHaveCount(0);
    await attachScreenshot(page, testInfo, 'plain-http', 375);

    await page.getByRole('link', { name: 'Trust the robot’s certificate' }).click();
    await expect(page.getByRole('heading', { name: 'Trust this robot' })).toBeVisible();
    await context.close();
  } finally {
    await browser.close();
  }
});
