/**
 * The camera's WebRTC path against a real cockpit and its simulated robot: the dashboard prefers
 * it, the picture plays in a <video> and changes, two browsers share the one upstream session
 * (and no JPEG decoder runs for them), and when WebRTC is refused the view falls back to the
 * socket's JPEG pictures and says why. Every wait is on something the page or cockpit shows.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { fanout, upstreamSessions, videoFingerprint, withoutWebrtc } from './pages/relay.ts';

async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

/** Pictures are playing over the relay: more than one shown (a rate is the bench's to measure). */
async function showsWebrtcPictures(page: Page, atLeast = 1): Promise<void> {
  // A window in the background may not paint video frames; the one under test is brought forward.
  await page.bringToFront();
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByLabel('Video path')).toHaveText('WebRTC (relay)');
  const shown = card.getByLabel('Pictures shown');
  await expect.poll(async () => Number(await shown.innerText())).toBeGreaterThan(atLeast);
  await expect(card.getByText('Live', { exact: true })).toBeVisible();
}

test.describe('with the daemon camera (H.264 over WebRTC)', () => {
  // The relay forwards the daemon's RTP; the synthetic camera the other specs use has none.
  test.use({ cockpitEnv: { ROBOT_CAMERA: 'daemon' } });

  test('a browser receives the camera through the relay and the picture changes', async ({ page, cockpit }) => {
    await openDashboard(page, cockpit.url, cockpit.token);
    await showsWebrtcPictures(page);
    const first = await videoFingerprint(page);
    expect(first).toMatch(/^640x360:/);
    // The simulated picture prints a running clock: a later picture differs.
    await expect.poll(() => videoFingerprint(page)).not.toBe(first);
    const counts = await fanout(cockpit.url, cockpit.token);
    expect(counts.relay).toMatchObject({ viewers: 1, connected: 1, upstreamWatches: 1 });
    expect(counts.relay.packetsOut).toBeGreaterThan(0);
    // Only WebRTC watches: nothing asks the cockpit for JPEG.
    expect(counts.hub.viewers.jpeg).toBe(0);
  });

  test('two browsers share the one upstream camera session', async ({ page, browser, cockpit, browserErrors }) => {
    await openDashboard(page, cockpit.url, cockpit.token);
    const other = await browser.newContext();
    const second = await other.newPage();
    browserErrors.watch(second);
    await openDashboard(second, cockpit.url, cockpit.token);
    await showsWebrtcPictures(page);
    await showsWebrtcPictures(second);
    const counts = await fanout(cockpit.url, cockpit.token);
    expect(counts.relay).toMatchObject({ viewers: 2, connected: 2, upstreamWatches: 1 });
    expect(counts.hub.videoWatchers).toBe(1);
    expect(await upstreamSessions(cockpit.simUrl())).toBe(1);
    await other.close();
  });
});

test('when the cockpit refuses WebRTC, the view uses the socket JPEG pictures and says why', async ({
  page,
  cockpit,
}) => {
  // The socket passes through, except that the cockpit's answer to `video start` is a refusal.
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const parsed = typeof message === 'string' ? (JSON.parse(message) as { type?: string; action?: string }) : null;
      if (parsed?.type === 'video' && parsed.action === 'start') {
        ws.send(
          JSON.stringify({
            type: 'video',
            action: 'refused',
            code: 'VIDEO_UNAVAILABLE',
            error: 'refused for this test',
          }),
        );
        return;
      }
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByLabel('Video path')).toHaveText('Socket JPEG (WebRTC: refused for this test)');
  const shown = card.getByLabel('Pictures shown');
  await expect.poll(async () => Number(await shown.innerText()), { timeout: 20_000 }).toBeGreaterThan(5);
  await expect(card.locator('canvas')).toBeVisible();
  const counts = await fanout(cockpit.url, cockpit.token);
  expect(counts.hub.viewers.jpeg).toBe(1);
  expect(counts.hub.jpegWanted).toBe(true);
  expect(counts.relay.viewers).toBe(0);
});

test('a browser without WebRTC gets the socket JPEG pictures', async ({ page, cockpit }) => {
  await withoutWebrtc(page);
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Camera' });
  await expect(card.getByLabel('Video path')).toHaveText('Socket JPEG');
  const shown = card.getByLabel('Pictures shown');
  await expect.poll(async () => Number(await shown.innerText()), { timeout: 20_000 }).toBeGreaterThan(5);
});
