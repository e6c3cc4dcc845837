/** The dashboard against a real cockpit with its simulated robot: sign-in and the live pose. */
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { horizontalOverflow, settleLayout, storedToken } from './pages/browser.ts';

const POSE_NAMES = ['Head yaw', 'Head pitch', 'Head roll', 'Head z', 'Right antenna', 'Left antenna', 'Body yaw'];

async function readPose(page: Page): Promise<Record<string, string>> {
  const entries = await Promise.all(
    POSE_NAMES.map(async (name) => [name, await page.getByLabel(name, { exact: true }).innerText()] as const),
  );
  return Object.fromEntries(entries);
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
  await settleLayout(page);
  expect(await horizontalOverflow(page), `horizontal scroll at ${width} px`).toBeLessThanOrEqual(0);
  // Written into the test's output folder (kept by the list reporter too), then attached.
  const file = testInfo.outputPath(`${name}-${width}px.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(`${name}-${width}px`, { path: file, contentType: 'image/png' });
}

test('the dashboard opens with the token and shows pose values that change', async ({ page, cockpit }, testInfo) => {
  await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}`);

  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(page).toHaveURL(`${cockpit.url}/`);
  expect(await storedToken(page, cockpit.url)).toBe(cockpit.token);

  const pill = page.getByRole('group', { name: 'Connection' });
  await expect(pill).toContainText('Live');
  await expect(pill).toContainText(/\b\d+\.\d Hz\b/);
  const yaw = page.getByLabel('Head yaw', { exact: true });
  await expect(yaw).toHaveText(/^[+\u2212\u2007]\d+\.\d°$/);

  // Drive the head as a script would (bearer, no Origin): the dashboard must follow live.
  const first = await readPose(page);
  const firstAge = await pill.innerText();
  const look = await fetch(`${cockpit.url}/api/control/look`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cockpit.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ yaw: 25, pitch: -8, duration: 1 }),
  });
  expect(look.status).toBe(200);
  await expect
    .poll(async () => JSON.stringify(await readPose(page)) !== JSON.stringify(first), { timeout: 8000 })
    .toBe(true);
  await expect(yaw).toHaveText(/^\+2[45]\.\d°$/, { timeout: 8000 });
  await expect.poll(async () => (await pill.innerText()) !== firstAge, { timeout: 5000 }).toBe(true);

  await expect(page.getByRole('heading', { level: 2, name: 'Head pose' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Top view: body yaw/ })).toBeVisible();
  await attachScreenshot(page, testInfo, 'dashboard', 1280);
  await attachScreenshot(page, testInfo, 'dashboard', 375);
});

test('without a token the sign-in card is shown, entering the token opens the dashboard', async ({
  page,
  cockpit,
}, testInfo) => {
  await page.goto(cockpit.url);

  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByLabel('Head yaw', { exact: true })).toHaveCount(0);
  await attachScreenshot(page, testInfo, 'sign-in', 375);

  await page.getByLabel('Owner token').fill(cockpit.token);
  await page.getByRole('button', { name: 'Open dashboard' }).click();

  await expect(page.getByText('Simulated robot')).toBeVisible();
  await expect(page.getByLabel('Head yaw', { exact: true })).toHaveText(/°$/);
  expect(await storedToken(page, cockpit.url)).toBe(cockpit.token);
});

test('a token the cockpit refuses leads back to the sign-in card with the reason', async ({ page, cockpit }) => {
  await page.goto(`${cockpit.url}/#token=not-the-owner-token`);

  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('no longer accepts the saved token')).toBeVisible();
  await expect(page).toHaveURL(`${cockpit.url}/`);
  expect(await storedToken(page, cockpit.url)).toBeNull();
});
