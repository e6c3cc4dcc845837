/**
 * The platform card against a real cockpit and the platform emulator (a faithful double of the
 * hosted platform's device routes, started here on port 0): enrolment with pasted values (the
 * token never shown again), the link switch with local control unaffected, a notice as a toast,
 * the firmware channel, and forgetting the identity.
 */
import type { Page } from '@playwright/test';
import { startPlatformEmulator, type PlatformEmulator } from '../platform-client/test/platform-emulator.ts';
import { expect, test as base } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';
import { attachScreenshot } from './pages/screenshots.ts';

const test = base.extend<{ emulator: PlatformEmulator }>({
  // Playwright reads the fixtures a fixture needs from its first parameter: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  emulator: async ({}, use) => {
    const emulator = await startPlatformEmulator();
    await use(emulator);
    await emulator.close();
  },
});

async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

test('enrol, switch the link, get a notice, set the channel and forget the platform', async ({
  page,
  cockpit,
  emulator,
}, testInfo) => {
  const owner = emulator.addUser('owner');
  const device = emulator.enrolDevice(owner.session, 'reachy-e2e');
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();

  const form = card.getByRole('form', { name: 'Enrol on the platform' });
  await form.getByLabel('Platform URL').fill(emulator.url);
  await form.getByLabel('Device id').fill(device.deviceId);
  await form.getByLabel('Device token').fill(device.token);
  await form.getByRole('button', { name: 'Enrol' }).click();
  await expect(card.getByText('Online', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText(device.deviceId)).toBeVisible();
  await expect(card.getByText(/^\d+ s ago$/)).toBeVisible();
  expect(await page.content()).not.toContain(device.token);

  // Off: the platform hears nothing more, the robot still answers local control.
  const link = card.getByRole('switch', { name: 'Platform link' });
  await link.click();
  await expect(link).toHaveAttribute('aria-checked', 'false');
  await expect(card.getByText('Disconnected', { exact: true })).toBeVisible();
  const look = await api(cockpit.url, '/api/control/look', { method: 'POST', token: cockpit.token, body: { yaw: 5 } });
  expect(look.status).toBe(200);
  await link.click();
  await expect(card.getByText('Online', { exact: true })).toBeVisible({ timeout: 20_000 });

  // A notice pushed to the owner reaches the robot through the relay and shows as a toast.
  await expect.poll(() => emulator.pushToUser(owner.userId, { title: 'Parcel', body: 'At the door' }).relayed).toBe(1);
  const toast = page.getByRole('status').filter({ hasText: 'Parcel' });
  await expect(toast).toContainText('At the door', { timeout: 20_000 });
  await attachScreenshot(page, testInfo, 'platform', 1280, { fullPage: false });
  await page.setViewportSize({ width: 375, height: 812 });
  await card.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'platform', 375, { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await toast.getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast).toHaveCount(0);

  await card.getByLabel('Firmware channel').fill('beta');
  await card.getByRole('button', { name: 'Set channel' }).click();
  await expect
    .poll(async () => {
      const status = await api(cockpit.url, '/api/console/platform', { token: cockpit.token });
      return (status.body.firmware as { channel: string }).channel;
    })
    .toBe('beta');

  await card.getByRole('button', { name: 'Forget platform…' }).click();
  await card.getByRole('button', { name: 'Forget platform', exact: true }).click();
  await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();
  await expect(card.getByRole('form', { name: 'Enrol on the platform' }).getByLabel('Device token')).toHaveValue('');
});

test('a refused enrolment keeps the form, says why and still empties the token field', async ({
  page,
  cockpit,
  emulator,
  browserErrors,
}) => {
  browserErrors.expect(/status of 400/);
  const owner = emulator.addUser('owner');
  const device = emulator.enrolDevice(owner.session, 'reachy-e2e');
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  const form = card.getByRole('form', { name: 'Enrol on the platform' });
  await form.getByLabel('Platform URL').fill(emulator.url);
  await form.getByLabel('Device id').fill(device.deviceId);
  await form.getByLabel('Device token').fill('not-the-device-token');
  // The cockpit answers 400 for a token the platform refuses; the browser logs the failed request.
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/console/platform/enrol'));
  await form.getByRole('button', { name: 'Enrol' }).click();
  expect((await refused).status()).toBe(400);
  await expect(form.getByLabel('Device token')).toHaveValue('');
  await expect(card.getByRole('status').filter({ hasText: /\w/ })).toHaveCount(1);
  await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();
});
