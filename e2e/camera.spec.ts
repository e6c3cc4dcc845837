/**
 * The camera card against a real cockpit and its simulated robot: pictures arrive over the
 * dashboard socket and are drawn, the readouts move, a click on the picture turns the head, and
 * the card fits a phone and a laptop. The pictures come from the synthetic camera (the fixture's
 * default: no WebRTC or ffmpeg; the daemon's video path has its own integration tests), and page time stands still
 * while the card is judged, so a picture cannot turn stale because the machine is busy: "Live"
 * means a picture drawn within 2 s of page time, and only the test moves page time.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { api, stateYaw } from './pages/cockpit-api.ts';
import { stopPageTime } from './pages/page-time.ts';
import { withoutWebrtc } from './pages/relay.ts';
import { attachScreenshot } from './pages/screenshots.ts';

/** Opens the dashboard and stops page time once the socket is live. */
async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.clock.install();
  await page.goto(`${url}/?token=${encodeURIComponent(token)}`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  await stopPageTime(page);
}

/** The size of the bitmap drawn on the camera canvas (0 × 0 before the first picture). */
async function canvasSize(page: Page): Promise<{ width: number; height: number }> {
  const canvas = page.getByRole('button', { name: /^Camera picture/ }).locator('canvas');
  return canvas.evaluate((el) => {
    const c = el as unknown as { width: number; height: number };
    return { width: c.width, height: c.height };
  });
}

test('the camera view shows live pictures from the socket and the numbers move', async ({
  page,
  cockpit,
}, testInfo) => {
  // The socket path is the one under test here; WebRTC is preferred where it exists (relay.spec.ts).
  await withoutWebrtc(page);
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByText('Live', { exact: true })).toBeVisible();

  const shown = card.getByLabel('Pictures shown');
  await expect.poll(async () => Number(await shown.innerText())).toBeGreaterThan(5);
  const first = Number(await shown.innerText());
  await expect.poll(async () => Number(await shown.innerText())).toBeGreaterThan(first + 5);
  // The rates are measured on page time: let a second of it run for them to mean something.
  await page.clock.runFor(1000);
  await expect(card.getByLabel('Frame age')).toHaveText(/^\d\.\d s$/);
  await expect(card.getByLabel('Frame rate')).toHaveText(/^\d+\.\d fps$/);
  await expect(card.getByLabel('Cockpit → screen')).toHaveText(/^\d+ ms$/);
  // The simulator's camera is 640 × 360: the canvas holds a real decoded picture of that size.
  expect(await canvasSize(page)).toEqual({ width: 640, height: 360 });
  // Drawn pixels, not a blank canvas: some pixel is not black.
  const lit = await card.locator('canvas').evaluate((el) => {
    const c = el as unknown as { getContext(kind: '2d'): { getImageData(...a: number[]): { data: number[] } } };
    const data = c.getContext('2d').getImageData(0, 0, 640, 360).data;
    for (let i = 0; i < data.length; i += 4 * 97) if (data[i]! + data[i + 1]! + data[i + 2]! > 30) return true;
    return false;
  });
  expect(lit).toBe(true);

  // Screenshots wait for animation frames, which run on page time.
  await page.clock.resume();
  await attachScreenshot(page, testInfo, 'camera', 1280, { fullPage: false });
  await page.setViewportSize({ width: 375, height: 812 });
  await card.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, 'camera', 375, { fullPage: false });
});

test('a click on the picture turns the head toward that point', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const picture = page.getByRole('button', { name: /^Camera picture/ });
  await expect(page.getByRole('region', { name: 'Camera' }).getByText('Live', { exact: true })).toBeVisible();
  const before = await stateYaw(cockpit.url, cockpit.token);
  const box = await picture.boundingBox();
  if (!box) throw new Error('the camera picture has no box');
  // The right edge of the picture: the head turns right (yaw goes down) by about half the view.
  await picture.click({ position: { x: box.width * 0.95, y: box.height / 2 } });
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeLessThan(before - 15);
});

test('the snapshot downloads as the JPEG on screen; full screen opens and closes', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByText('Live', { exact: true })).toBeVisible();

  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download snapshot' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^robot-snapshot-\d{8}-\d{6}\.jpg$/);
  const bytes = await readFile(await file.path());
  expect(bytes.length).toBeGreaterThan(1000);
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);

  await card.getByRole('button', { name: 'Full screen' }).click();
  const exit = page.getByRole('button', { name: 'Exit full screen' });
  await expect(exit).toBeVisible();
  await exit.click();
  await expect(exit).toHaveCount(0);
});

test('when the socket brings no pictures, the view falls back to the MJPEG stream', async ({ page, cockpit }) => {
  await withoutWebrtc(page);
  // Pass the dashboard socket through, minus the page's requests for pictures: the cockpit then
  // sends none (and the proxy carries no picture bytes, which cost a loaded machine dearly).
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (typeof message !== 'string' || !message.includes('"type":"camera"')) server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  // The view gives the socket 4 s of page time to bring a picture once the camera is live, then
  // falls back. The page has heard the camera is live when it waits for a first picture (or has
  // fallen back already: page time ran freely until the dashboard was open).
  await expect(card.getByText(/^(Waiting for the first picture…|Live · MJPEG)$/)).toBeVisible();
  await page.clock.runFor(4500);
  await expect(card.getByText('Live · MJPEG')).toBeVisible();
  const img = card.getByRole('button', { name: /^Camera picture/ }).locator('img');
  await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(640);
  await expect(card.getByLabel('Frame rate')).toHaveText(/fps at the cockpit$/);
});

test('the face the tracker sees is framed on the picture', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByText('Live', { exact: true })).toBeVisible();
  const marker = card.getByText('face', { exact: true });
  await expect(marker).toHaveCount(0);

  // A person straight in front of where the head looks now (the simulator's head-pose angles).
  const state = await api(cockpit.url, '/api/state', { token: cockpit.token });
  const head = state.body.head as { yaw: number; pitch: number };
  const face = (present: boolean) =>
    fetch(`${cockpit.simUrl()}/sim/face`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(present ? { present, yaw: head.yaw, pitch: head.pitch } : { present }),
    });
  expect((await face(true)).status).toBe(200);
  await expect(marker).toBeVisible();
  expect((await face(false)).status).toBe(200);
  await expect(marker).toHaveCount(0);
});
