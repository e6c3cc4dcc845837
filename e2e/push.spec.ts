/**
 * Web Push in the browser, against a real cockpit: the dashboard registers /sw.js
 * without asking anything; the switch asks for permission only when pressed, and a refusal shows
 * in the card with no console error; a push delivered to the service worker (DevTools'
 * ServiceWorker.deliverPushMessage) shows the notice with its title, body and url.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';

async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#/settings/notifications`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible();
}

/** The script URL of the service worker once it is active (navigator.serviceWorker.ready). */
async function readyWorker(page: Page): Promise<string> {
  const value: unknown = await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)');
  if (typeof value !== 'string') throw new Error(`service worker ready gave ${String(value)}`);
  return value;
}

test('the dashboard registers /sw.js on load and asks nothing', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  expect(await readyWorker(page)).toBe(`${cockpit.url}/sw.js`);
  expect(await page.evaluate('Notification.permission')).toBe('default');
  const card = page.getByRole('region', { name: 'Notifications' });
  await expect(card.getByRole('switch', { name: 'Notifications on this device' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(card.getByText('Off on this browser. No browser gets them yet.')).toBeVisible();
});

test('a refused permission is reported in the card, the switch stays off', async ({ page, cockpit }) => {
  // This context was given no 'notifications' permission: the browser refuses the request.
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Notifications' });
  const toggle = card.getByRole('switch', { name: 'Notifications on this device' });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(card.getByRole('alert')).toHaveText(/blocked for this site|was not given/);
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  expect(await page.evaluate('Notification.permission')).not.toBe('granted');
  const settings = await api(cockpit.url, '/api/console/push/settings', { token: cockpit.token });
  expect(settings.body.subscriptions).toEqual({ total: 0, yours: 0 });
});

test('the kinds of notice are switched from the card', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const camera = page.getByRole('region', { name: 'Notifications' }).getByRole('checkbox', { name: 'Camera lost' });
  await expect(camera).toBeChecked();
  await camera.uncheck();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('status')).toHaveText('Saved.');
  const settings = await api(cockpit.url, '/api/console/push/settings', { token: cockpit.token });
  expect(settings.body.kinds).toMatchObject({ camera: false, daemon: true });
});

test('a push reaching the service worker shows its notice', async ({ page, cockpit, context }) => {
  await context.grantPermissions(['notifications'], { origin: cockpit.url });
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
    for (const r of list) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await openDashboard(page, cockpit.url, cockpit.token);
  await readyWorker(page);
  await expect.poll(() => registrations.get(`${cockpit.url}/`)).toBeTruthy();
  const payload = {
    title: 'Robot daemon unreachable',
    body: 'No answer from the simulator for over 30 s.',
    url: '/#cards',
    tag: 'daemon',
  };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: `${cockpit.url}/`,
    registrationId: registrations.get(`${cockpit.url}/`) as string,
    data: JSON.stringify(payload),
  });
  const shown = async (): Promise<unknown> =>
    page.evaluate(`navigator.serviceWorker.ready
      .then((r) => r.getNotifications())
      .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))`);
  await expect
    .poll(shown)
    .toEqual([{ title: payload.title, body: payload.body, tag: 'daemon', url: `${cockpit.url}/#cards` }]);
});
