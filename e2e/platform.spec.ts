/**
 * The platform card against a real cockpit and the platform emulator (a faithful double of the
 * hosted platform's device routes, started here on port 0): enrolment with pasted values or with
 * the owner's session token (tokens never shown again), the link switch with local control
 * unaffected, a notice as a toast, the firmware channel and install consent, the owner session
 * that lets the robot's agent reach the owner's other devices, and forgetting the identity.
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
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#/settings/platform`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

async function platformStatus(url: string, token: string): Promise<Record<string, unknown>> {
  const { status, body } = await api(url, '/api/console/platform', { token });
  if (status !== 200) throw new Error(`GET /api/console/platform answered ${status}`);
  return body;
}

// An installer that installs nothing: the emulator publishes no firmware, so it never runs; it
// only gives this console an installer, which the install switch needs.
test.describe('with a firmware installer', () => {
  test.use({ cockpitEnv: { ROBOT_FIRMWARE_HOOK: '/bin/true' } });

  test('enrol, switch the link, get a notice, set the channel, allow installs and forget the platform', async ({
    page,
    cockpit,
    emulator,
  }, testInfo) => {
    const owner = emulator.addUser('owner');
    const device = emulator.enrolDevice(owner.session, 'reachy-e2e');
    await openDashboard(page, cockpit.url, cockpit.token);
    const card = page.getByRole('region', { name: 'Platform' });
    await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();

    const form = card.getByRole('form', { name: 'Enrol with a device token' });
    await form.getByLabel('Platform URL').fill(emulator.url);
    await form.getByLabel('Device id').fill(device.deviceId);
    await form.getByLabel('Device token').fill(device.token);
    await form.getByRole('button', { name: 'Enrol' }).click();
    await expect(card.getByText('Online', { exact: true })).toBeVisible();
    await expect(card.getByText(device.deviceId)).toBeVisible();
    await expect(card.getByText(/^\d+ s ago$/)).toBeVisible();
    expect(await page.content()).not.toContain(device.token);

    // Off: the platform hears nothing more, the robot still answers local control.
    const link = card.getByRole('switch', { name: 'Platform link' });
    await link.click();
    await expect(link).toHaveAttribute('aria-checked', 'false');
    await expect(card.getByText('Disconnected', { exact: true })).toBeVisible();
    const look = await api(cockpit.url, '/api/control/look', {
      method: 'POST',
      token: cockpit.token,
      body: { yaw: 5 },
    });
    expect(look.status).toBe(200);
    await link.click();
    await expect(card.getByText('Online', { exact: true })).toBeVisible();

    // A notice pushed to the owner reaches the robot through the relay and shows as a toast.
    await expect
      .poll(() => emulator.pushToUser(owner.userId, { title: 'Parcel', body: 'At the door' }).relayed)
      .toBe(1);
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

    // Install consent: off by default, on once the operator says so, and the status agrees.
    const firmware = card.getByRole('group', { name: 'Firmware' });
    await expect(firmware).toContainText('hook /bin/true');
    const install = firmware.getByRole('switch', { name: 'Install updates when the robot is idle' });
    await expect(install).toHaveAttribute('aria-checked', 'false');
    await expect(install).toHaveAccessibleDescription(/installed only while this is on and the robot is idle/);
    await install.click();
    await expect(install).toHaveAttribute('aria-checked', 'true');
    await expect
      .poll(async () => (await platformStatus(cockpit.url, cockpit.token)).firmware)
      .toMatchObject({ installAllowed: true, installer: 'hook /bin/true', channel: 'beta' });

    await card.getByRole('button', { name: 'Forget platform…' }).click();
    await card.getByRole('button', { name: 'Forget platform', exact: true }).click();
    await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();
    await expect(card.getByRole('form', { name: 'Enrol with a device token' }).getByLabel('Device token')).toHaveValue(
      '',
    );
  });
});

test('enrol with a session token, keep it for the agent, then replace and remove it', async ({
  page,
  cockpit,
  emulator,
}, testInfo) => {
  const owner = emulator.addUser('owner');
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();

  await card.getByRole('radio', { name: 'I have a session token' }).check();
  const form = card.getByRole('form', { name: 'Enrol with a session token' });
  await form.getByLabel('Platform URL').fill(emulator.url);
  await form.getByLabel('Session token').fill(owner.session);
  await expect(form.getByLabel('Device name')).toHaveValue('Robot Cockpit');
  await form.getByLabel('Device name').fill('reachy-session');
  await form.getByRole('checkbox', { name: /reach my other devices/ }).check();
  await form.getByRole('button', { name: 'Enrol' }).click();
  await expect(card.getByText('Online', { exact: true })).toBeVisible();

  const owned = card.getByRole('group', { name: 'Reach your other devices' });
  await expect(owned).toContainText('Stored');
  const status = await platformStatus(cockpit.url, cockpit.token);
  expect(status).toMatchObject({ enrolled: true, ownerSession: 'stored' });
  expect(emulator.ctx.state.devices.get(status.deviceId as string)?.name).toBe('reachy-session');
  await expect(owned).toContainText('list and message your other devices');
  expect(await page.content()).not.toContain(owner.session);

  // No installer in this console: the switch is locked off and says what to set on the robot.
  const install = card.getByRole('switch', { name: 'Install updates when the robot is idle' });
  await expect(install).toBeDisabled();
  await expect(install).toHaveAccessibleDescription(/set ROBOT_FIRMWARE_HOOK on the robot, or run the packaged app/);
  await attachScreenshot(page, testInfo, 'platform-session', 1280, { fullPage: false });

  await owned.getByRole('button', { name: 'Remove token…' }).click();
  await owned.getByRole('button', { name: 'Remove token', exact: true }).click();
  await expect(owned).toContainText('None');
  expect((await platformStatus(cockpit.url, cockpit.token)).ownerSession).toBeNull();

  // Pasted again through the panel: proved on the platform, stored, and the field empties.
  await owned.getByLabel('Session token').fill(owner.session);
  await owned.getByRole('button', { name: 'Save' }).click();
  await expect(owned).toContainText('Stored');
  await expect(owned.getByLabel('New session token')).toHaveValue('');
  expect((await platformStatus(cockpit.url, cockpit.token)).ownerSession).toBe('stored');
  expect(await page.content()).not.toContain(owner.session);
});

test('a refused owner session token says why and still empties the field', async ({
  page,
  cockpit,
  emulator,
  browserErrors,
}) => {
  browserErrors.expect(/status of 400/);
  const owner = emulator.addUser('owner');
  const device = emulator.enrolDevice(owner.session, 'reachy-e2e');
  const enrolled = await api(cockpit.url, '/api/console/platform/enrol', {
    method: 'POST',
    token: cockpit.token,
    body: { platformUrl: emulator.url, deviceId: device.deviceId, token: device.token },
  });
  expect(enrolled.status).toBe(200);
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  const owned = card.getByRole('group', { name: 'Reach your other devices' });
  await owned.getByLabel('Session token').fill('not-a-session-token');
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/console/platform/owner-session'));
  await owned.getByRole('button', { name: 'Save' }).click();
  expect((await refused).status()).toBe(400);
  await expect(owned.getByLabel('Session token')).toHaveValue('');
  await expect(card.getByText(/refused this session token/)).toBeVisible();
  await expect(owned).toContainText('None');
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
  const form = card.getByRole('form', { name: 'Enrol with a device token' });
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

test('a token rotated by the owner is told at once, and adopted in place with the stored session', async ({
  page,
  cockpit,
  emulator,
}) => {
  const owner = emulator.addUser('owner');
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  await card.getByRole('radio', { name: 'I have a session token' }).check();
  const form = card.getByRole('form', { name: 'Enrol with a session token' });
  await form.getByLabel('Platform URL').fill(emulator.url);
  await form.getByLabel('Session token').fill(owner.session);
  await form.getByRole('checkbox', { name: /reach my other devices/ }).check();
  await form.getByRole('button', { name: 'Enrol' }).click();
  await expect(card.getByText('Online', { exact: true })).toBeVisible();
  const { deviceId } = await platformStatus(cockpit.url, cockpit.token);

  // The owner rotates the token on the platform: the old one stops at once.
  const rotated = await fetch(`${emulator.url}/api/devices/adopt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ deviceId }),
  });
  expect(rotated.status).toBe(200);
  const alert = card.getByRole('alert');
  await expect(alert).toContainText('replaced by a new one', { timeout: 20_000 });
  await expect(card.getByText('Halted', { exact: true })).toBeVisible();

  await alert.getByRole('button', { name: 'Adopt a new token' }).click();
  await expect(card.getByText('Online', { exact: true })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  expect(await platformStatus(cockpit.url, cockpit.token)).toMatchObject({ tokenNotice: null, halted: null });
});

test('add the robot as an endpoint device the platform dials, with the owner token as its bearer', async ({
  page,
  cockpit,
  emulator,
  browserErrors,
}) => {
  browserErrors.expect(/status of 400/);
  const owner = emulator.addUser('owner');
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Platform' });
  const panel = card.getByRole('group', { name: 'Let the platform dial this robot' });
  await panel.getByRole('button', { name: 'Add as an endpoint device' }).click();
  const form = panel.getByRole('form', { name: 'Add as an endpoint device' });
  await form.getByLabel('Platform URL').fill(emulator.url);
  await form.getByLabel('Session token').fill(owner.session);
  await form.getByLabel('Device name').fill('reachy-endpoint');

  // A LAN address is refused by the cockpit (the platform never dials one), and nothing is created.
  await form.getByLabel('This robot’s public address').fill('https://192.168.1.20');
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/console/platform/enrol-endpoint'));
  await form.getByRole('button', { name: 'Add' }).click();
  expect((await refused).status()).toBe(400);
  await expect(card.getByText(/dials endpoint devices on a public host name \(not an IP/)).toBeVisible();
  await expect(form.getByLabel('Session token')).toHaveValue('');
  expect(emulator.requests.filter((r) => r.path === '/api/devices' && r.method === 'POST')).toEqual([]);

  await form.getByLabel('Session token').fill(owner.session);
  await form.getByLabel('This robot’s public address').fill('https://reachy.example.com/dashboard');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('status')).toContainText('the platform reaches the robot at https://reachy.example.com');

  const created = [...emulator.ctx.state.devices.values()].find((d) => d.name === 'reachy-endpoint');
  expect(created).toMatchObject({ kind: 'endpoint', url: 'https://reachy.example.com', tokenHash: null });
  await expect(panel).toContainText(created!.id);
  const sent = emulator.requests.find((r) => r.path === '/api/devices' && r.method === 'POST');
  expect(sent?.body).toMatchObject({ kind: 'endpoint', secret: cockpit.token });
  expect(await page.content()).not.toContain(cockpit.token);
  expect(await page.content()).not.toContain(owner.session);
  // The pull-device enrolment is a separate matter: still not enrolled.
  await expect(card.getByText('Not enrolled', { exact: true })).toBeVisible();
});
