/**
 * The first-run guide end to end: name the robot (header, tab title and public health follow),
 * a passkey for this browser by the virtual authenticator, the phone step's QR of the LAN HTTPS
 * address and its pairing link; then, on another robot, every step skipped, the self-test step on
 * a build without one, finishing, reopening from the header and closing for good.
 */
import { expect, test } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';
import { addVirtualAuthenticator } from './pages/passkeys.ts';
import { attachScreenshot } from './pages/screenshots.ts';

test.use({ cockpitHttps: true });

test('the guide names the robot, enrols a passkey, and shows the phone QR and pairing link', async ({ page, cockpit }, testInfo) => {
  const device = await addVirtualAuthenticator(page);
  await page.goto(`${cockpit.localUrl}/?token=${encodeURIComponent(cockpit.token)}`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');

  const guide = page.getByRole('region', { name: 'Set up this robot' });
  await expect(guide.getByText('Part 1 of 6: Name the robot')).toBeVisible();
  await attachScreenshot(page, testInfo, 'first-run', 1280);
  await attachScreenshot(page, testInfo, 'first-run', 375);
  await page.setViewportSize({ width: 1280, height: 800 });
  await guide.getByLabel('Robot name').fill('Desk robot');
  await guide.getByRole('button', { name: 'Save the name' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desk robot');
  await expect(page).toHaveTitle('Desk robot · Robot Cockpit');
  expect((await api(cockpit.url, '/api/health')).body.identity).toMatchObject({ name: 'Desk robot' });

  await expect(guide.getByText('Part 2 of 6: Add a passkey on this browser')).toBeVisible();
  await expect(guide.getByText('Passkeys enrolled on this robot: 0')).toBeVisible();
  await guide.getByRole('button', { name: 'Add a passkey here' }).click();
  await expect(guide.getByText('Passkeys enrolled on this robot: 1')).toBeVisible();
  expect(await device.count()).toBe(1);
  await guide.getByRole('button', { name: 'Skip to the next part' }).click();

  await expect(guide.getByText('Part 3 of 6: Open the dashboard on your phone')).toBeVisible();
  const setup = await api(cockpit.url, '/api/console/setup', { token: cockpit.token });
  const httpsUrl = setup.body.httpsUrl as string | null;
  if (httpsUrl !== null) {
    expect(httpsUrl).toMatch(/^https:\/\/[a-z0-9-]+\.local:\d+$/);
    const qr = guide.getByRole('img', { name: 'QR code of the robot’s address on the network' });
    await expect(qr).toHaveAttribute('data-url', httpsUrl);
  } else {
    await expect(guide.getByText(/no HTTPS address on the network/)).toBeVisible();
  }
  const trustMove = guide.getByRole('listitem').filter({ hasText: 'trust the robot’s certificate once' });
  await expect(trustMove.getByRole('link', { name: 'trust page' })).toHaveAttribute('href', '/trust');
  await expect(trustMove.getByRole('link', { name: 'certificate' })).toHaveAttribute('href', '/ca.crt');
  await guide.getByRole('button', { name: 'Show a pairing link' }).click();
  await expect(guide.getByRole('img', { name: 'QR code of the pairing link' })).toBeVisible();
  expect(await guide.getByLabel('Pairing link').inputValue()).toMatch(/\/\?pair=/);
  await guide.getByRole('button', { name: 'Skip to the next part' }).click();
  await expect(guide.getByText('Part 4 of 6: Choose a model provider')).toBeVisible();
});

test('every step can be skipped, the self-test step runs the robot check, and the guide reopens from the header', async ({
  page,
  cockpit,
}) => {
  await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}`);
  // The guide is read once the live link proves the token, as every card is.
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  const guide = page.getByRole('region', { name: 'Set up this robot' });
  for (const part of ['Part 1 of 6: Name the robot', 'Part 2 of 6', 'Part 3 of 6', 'Part 4 of 6']) {
    await expect(guide.getByText(part)).toBeVisible();
    await guide.getByRole('button', { name: 'Skip to the next part' }).click();
  }
  await expect(guide.getByText('Part 5 of 6: Run the self-test')).toBeVisible();
  await guide.getByRole('button', { name: 'Run the self-test' }).click();
  // The robot-care self-test answers with its checks (server/selftest/), the daemon's first; its
  // checks run side by side, the slowest bounded at 15 s (server/selftest/README-selftest.md).
  await expect(guide.getByRole('list', { name: 'Self-test results' })).toContainText('Daemon reachable, version tested', { timeout: 20_000 });
  await guide.getByRole('button', { name: 'Skip to the next part' }).click();
  await expect(guide.getByText('Part 6 of 6: Enrol on the platform (optional)')).toBeVisible();
  await guide.getByRole('button', { name: 'Finish the guide' }).click();
  await expect(guide).toHaveCount(0);
  expect((await api(cockpit.url, '/api/console/setup', { token: cockpit.token })).body.guide).toBe('finished');

  // Reopened from the header, it starts again; closed early, it stays closed after a reload.
  await page.getByRole('button', { name: 'Setup', exact: true }).click();
  await expect(guide.getByText('Part 1 of 6: Name the robot')).toBeVisible();
  await guide.getByRole('button', { name: 'Close the guide' }).click();
  await expect(guide).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(guide).toHaveCount(0);
  expect((await api(cockpit.url, '/api/console/setup', { token: cockpit.token })).body.guide).toBe('dismissed');
});
