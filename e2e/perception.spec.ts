/**
 * The perception card against a real cockpit and its simulated robot: the two switches change
 * what the cockpit does, a hold taken by a script shows up with its time running down, and a
 * click on the compass ring turns the head.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { api, stateYaw } from './pages/cockpit-api.ts';
import { attachScreenshot } from './pages/screenshots.ts';

async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#/perception`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

test('the perception switches turn tracking and turn-toward-speaker off and on', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Perception' });
  const tracking = card.getByRole('switch', { name: 'Face tracking' });
  const doa = card.getByRole('switch', { name: 'Turn toward speaker' });
  await expect(tracking).toHaveAttribute('aria-checked', 'true');
  await expect(doa).toHaveAttribute('aria-checked', 'true');

  await tracking.click();
  await expect(tracking).toHaveAttribute('aria-checked', 'false');
  await expect(card.getByText('Off', { exact: true }).first()).toBeVisible();
  expect((await api(cockpit.url, '/api/tracking', { token: cockpit.token })).body.enabled).toBe(false);
  await tracking.click();
  await expect(tracking).toHaveAttribute('aria-checked', 'true');
  expect((await api(cockpit.url, '/api/tracking', { token: cockpit.token })).body.enabled).toBe(true);

  await doa.click();
  await expect(doa).toHaveAttribute('aria-checked', 'false');
  expect((await api(cockpit.url, '/api/doa', { token: cockpit.token })).body.enabled).toBe(false);
  await doa.click();
  await expect(doa).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByText(/^Not turning: /)).toBeVisible();
});

test('a hold taken by a script appears with its time running down, then goes', async ({ page, cockpit }, testInfo) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Perception' });
  await expect(card.getByRole('switch', { name: 'Face tracking' })).toHaveAttribute('aria-checked', 'true');

  const hold = await api(cockpit.url, '/api/tracking/hold', {
    method: 'POST',
    token: cockpit.token,
    body: { name: 'e2e-script', on: true, ttl: 6 },
  });
  expect(hold.status).toBe(200);
  const row = card
    .getByRole('list', { name: 'Tracking holds' })
    .getByRole('listitem')
    .filter({ hasText: 'e2e-script' });
  await expect(row).toBeVisible();
  await expect(card.getByText('Paused by e2e-script')).toBeVisible();
  const seconds = async () => Number(/(\d+(?:\.\d)?) s/.exec(await row.innerText())?.[1] ?? NaN);
  const first = await seconds();
  expect(first).toBeGreaterThan(3);
  expect(first).toBeLessThanOrEqual(6);
  await expect.poll(seconds, { timeout: 4000 }).toBeLessThan(first - 1);

  await attachScreenshot(page, testInfo, 'perception', 1280, { fullPage: false });
  await page.setViewportSize({ width: 375, height: 812 });
  await card.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'perception', 375, { fullPage: false });

  await expect(row).toHaveCount(0, { timeout: 8000 });
  await expect(card.getByText('No holds: nothing is pausing the tracker.')).toBeVisible();
});

test('a click on the compass ring turns the head to that bearing', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const compass = page.getByRole('button', { name: /^Speaker compass/ });
  await expect(compass).toBeEnabled();
  const box = await compass.boundingBox();
  if (!box) throw new Error('the compass has no box');
  // The ring's left side, at about 45° to the robot's left.
  await compass.click({ position: { x: box.width * 0.2, y: box.height * 0.2 } });
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token), { timeout: 8000 }).toBeGreaterThan(20);
});

test('a speaker on the left shows on the compass, with the reason line and the turn counter', async ({
  page,
  cockpit,
}) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Perception' });
  await expect(card.getByText('Not turning: no speech')).toBeVisible();
  const speaker = await fetch(`${cockpit.simUrl()}/sim/speaker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bearing: 40, speaking: true }),
  });
  expect(speaker.status).toBe(200);
  await expect(card.getByLabel('Speaker', { exact: true })).toHaveText(/^\d+° left · speaking$/);
  await expect(card.getByText('Not turning: no speech')).toHaveCount(0);
  // Heard long enough from one side, the robot turns toward it and counts the turn.
  await expect(card.getByLabel('Turns')).not.toHaveText('0', { timeout: 15_000 });
});
