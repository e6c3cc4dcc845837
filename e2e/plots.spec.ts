/**
 * The live plots against a real cockpit with its simulated robot: the head-pose plot and the four
 * health plots each draw on a canvas of real size, and the values they say in words follow the
 * robot (a look moves the yaw; a control request shows in the next health sample).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';

/** The plot's drawing area, once uPlot has drawn data: its canvas's size in CSS pixels. */
async function drawnCanvasSize(figure: Locator): Promise<{ width: number; height: number }> {
  await expect(figure.locator('[data-drawn="true"]')).toHaveCount(1);
  const box = await figure.locator('canvas').first().boundingBox();
  return { width: box?.width ?? 0, height: box?.height ?? 0 };
}

/** The pose plot's canvas as a data URL: it changes whenever the plot redraws with new data. */
const POSE_CANVAS = `[...document.querySelectorAll('figure')]
  .find((f) => f.textContent.includes('Yaw, pitch and roll'))
  ?.querySelector('canvas')?.toDataURL() ?? ''`;

for (const reducedMotion of ['no-preference', 'reduce'] as const) {
  test.describe(`with reduced motion ${reducedMotion}`, () => {
    test.use({ reducedMotion });

    test('the head-pose plot draws the last 30 s, redraws, and says the latest yaw, pitch and roll', async ({
      page,
      cockpit,
    }) => {
      await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}`);
      const plot = page.getByRole('figure', { name: /^Yaw, pitch and roll/ });
      await expect(plot).toContainText(
        /Yaw [+\u2212\u2007]\d+\.\d°, Pitch [+\u2212\u2007]\d+\.\d°, Roll [+\u2212\u2007]\d+\.\d°/,
      );
      const size = await drawnCanvasSize(plot);
      expect(size.width).toBeGreaterThan(100);
      expect(size.height).toBeGreaterThan(50);
      const before = String(await page.evaluate(POSE_CANVAS));

      const look = await fetch(`${cockpit.url}/api/control/look`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cockpit.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ yaw: 25, duration: 1 }),
      });
      expect(look.status).toBe(200);
      await expect(plot).toContainText(/Yaw \+2[45]\.\d°/);
      // Throttled or not, the drawing follows: the canvas is drawn again with the new samples.
      await expect.poll(async () => String(await page.evaluate(POSE_CANVAS)) !== before).toBe(true);
    });
  });
}

test('the health plots start from the history and add each new sample', async ({ page, cockpit }) => {
  const authed = { authorization: `Bearer ${cockpit.token}` };
  // The history the page will start from holds a sample already (one per 5 s of the cockpit's clock).
  await expect
    .poll(async () => {
      const history = (await (
        await fetch(`${cockpit.url}/api/console/health/history`, { headers: authed })
      ).json()) as {
        samples: unknown[];
      };
      return history.samples.length;
    })
    .toBeGreaterThan(0);
  // The health plots sit in Settings > Diagnostics.
  await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}#/settings/diagnostics`);

  const names = ['Daemon rate (Hz)', 'Control latency (ms)', 'Camera (fps)', 'Cockpit CPU (% of one core)'];
  for (const name of names) {
    const figure = page.getByRole('figure', { name: new RegExp(`^${name.replace(/[()%]/g, '\\$&')}`) });
    await expect(figure).not.toContainText('Waiting for the first sample');
    const size = await drawnCanvasSize(figure);
    expect(size.width, name).toBeGreaterThan(100);
    expect(size.height, name).toBeGreaterThan(50);
  }
  const rate = page.getByRole('figure', { name: /^Daemon rate/ });
  await expect(rate).toContainText(/State stream \d+\.\d Hz, control loop not reported/);
  await expect(page.getByRole('figure', { name: /^Camera/ })).toContainText(/\d+\.\d fps/);

  // A control request reaches the daemon: the next sample, pushed over the socket, counts it.
  const latency = page.getByRole('figure', { name: /^Control latency/ });
  await expect(latency).toContainText('No control request in the last sample');
  const look = await fetch(`${cockpit.url}/api/control/look`, {
    method: 'POST',
    headers: { ...authed, 'content-type': 'application/json' },
    body: JSON.stringify({ yaw: 10, duration: 1 }),
  });
  expect(look.status).toBe(200);
  await expect(latency).toContainText(/Median \d+(\.\d)? ms, slowest \d+(\.\d)? ms \(1 request\)/);

  const axe = await new AxeBuilder({ page }).include('figure').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  expect(serious).toEqual([]);
});
