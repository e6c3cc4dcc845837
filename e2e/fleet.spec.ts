/**
 * The fleet page with a second cockpit (its own process, HTTPS on so its health carries a
 * certificate fingerprint) and an address nothing answers on: both added by address, the one
 * that answers sorted first with its name from its own health (markup in it shown as text), and
 * a fingerprint change warned about and trusted. That the list survives a restart is checked by
 * server/desktop/routes/discovery-routes.test.ts.
 */
import { startCockpitProcess, freePort } from './fixtures/cockpit-process.ts';
import { expect, test } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';
import { attachScreenshot } from './pages/screenshots.ts';

/** Markup in a name a robot reports must reach the page as text. */
const NAME = 'Second <b>robot</b>';
const OLD_FINGERPRINT = Array.from({ length: 32 }, () => '0F').join(':');

test('the fleet lists a second cockpit first and an unreachable one after it, and warns when a fingerprint changes', async ({
  page,
  cockpit,
  browserErrors,
}, testInfo) => {
  // Reading an address where nothing listens is refused by the network; Chromium may log it.
  browserErrors.allow(/ERR_CONNECTION_REFUSED|Failed to load resource/);
  // The second cockpit starts while this one's page opens; the address nothing answers is added first.
  const starting = startCockpitProcess({ https: true });
  const stopSecond = () => starting.then((s) => s.stop(), () => undefined);
  try {
    const silentPort = await freePort();
    await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}`);
    await page.getByRole('link', { name: 'Fleet' }).click();
    await expect(page.getByRole('heading', { name: 'Fleet' })).toBeVisible();
    await expect(page.getByText(/not advertised: off: bound to 127\.0\.0\.1/)).toBeVisible();
    await expect(page.getByText('No other robot yet.')).toBeVisible();
    const form = page.getByRole('form', { name: 'Add a robot by address' });
    await form.getByLabel('Address of the robot').fill('127.0.0.1');
    await form.getByLabel('Port').fill(String(silentPort));
    await form.getByRole('button', { name: 'Add robot' }).click();
    await expect(form.getByLabel('Address of the robot')).toHaveValue('');

    const second = await starting;
    const renamed = await api(second.url, '/api/console/setup', { method: 'PUT', token: second.token, body: { name: NAME } });
    expect(renamed.status).toBe(200);
    const secondPort = Number(new URL(second.url).port);
    // The second robot was known before with another certificate (as if reinstalled since).
    const added = await api(cockpit.url, '/api/console/fleet/peers', {
      method: 'POST',
      token: cockpit.token,
      body: { host: '127.0.0.1', port: secondPort },
    });
    expect(added.status).toBe(201);
    const id = String(added.body.id);
    const earlier = { method: 'POST', token: cockpit.token, body: { fingerprint: OLD_FINGERPRINT } };
    expect((await api(cockpit.url, `/api/console/fleet/peers/${id}/fingerprint`, earlier)).status).toBe(200);
    const secondHealth = await api(second.url, '/api/health');
    const current = (secondHealth.body.identity as { fingerprint: string }).fingerprint;
    expect(current).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/);
    await page.reload();

    const robots = page.getByRole('list', { name: 'Robots' }).getByRole('listitem');
    await expect(robots).toHaveCount(2);
    await expect(robots.first()).toContainText(NAME);
    await expect(robots.first().locator('b')).toHaveCount(0);
    await expect(robots.first()).toContainText('Answers');
    await expect(robots.first().getByRole('link', { name: `Open ${NAME}` })).toHaveAttribute('href', `${second.url.replace(/\/$/, '')}/`);
    await expect(robots.nth(1)).toContainText('Does not answer');
    await expect(robots.nth(1)).toContainText(`127.0.0.1:${silentPort}`);
    // This browser read the new fingerprint from the robot's health; the cockpit warns about it.
    const warning = robots.first().getByRole('alert');
    await expect(warning).toContainText('certificate fingerprint changed');
    await expect(warning).toContainText(OLD_FINGERPRINT);
    await expect(warning).toContainText(current);
    await attachScreenshot(page, testInfo, 'fleet', 1280);
    await attachScreenshot(page, testInfo, 'fleet', 375);
    await page.setViewportSize({ width: 1280, height: 800 });

    await robots.first().getByRole('button', { name: `Trust the new fingerprint of ${NAME}` }).click();
    await expect(robots.first().getByRole('alert')).toHaveCount(0);
    const trusted = await api(cockpit.url, '/api/console/fleet', { token: cockpit.token });
    expect(trusted.body.peers).toContainEqual(expect.objectContaining({ id, fingerprint: current, fingerprintChange: null }));

    await robots.nth(1).getByRole('button', { name: /^Remove / }).click();
    await expect(robots).toHaveCount(1);
  } finally {
    await stopSecond();
  }
});
