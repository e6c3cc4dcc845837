/**
 * The black box against a real cockpit: the head is turned, STOP is pressed, the head turns
 * elsewhere; then the dashboard saves the last minute, replays it, jumps to the STOP marker and
 * shows that moment's camera frame and pose, plays at 4× on the page's clock, and downloads the
 * `.mcap`, which the official indexed reader opens.
 */
import { McapIndexedReader } from '@mcap/core';
import { readFile } from 'node:fs/promises';
import type { RecordingsView, ReplaySummary } from '../server/contract/recordings.ts';
import type { RobotState } from '../server/contract/state.ts';
import { expect, test } from './fixtures/cockpit.ts';

// Camera frames are part of what this test checks (the fixture records none by default).
test.use({ cockpitEnv: { ROBOT_RECORD_FPS: '5' } });

test('save the last minute, replay it, scrub to the STOP and download the file', async ({ page, cockpit }) => {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${cockpit.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${cockpit.token}`, 'content-type': 'application/json' },
    });
  const headYaw = async () => ((await (await api('/api/state')).json()) as RobotState).head.yaw;
  const recorder = async () => ((await (await api('/api/console/recordings')).json()) as RecordingsView).recorder;

  await page.clock.install();
  await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}#/settings/recordings`);
  const card = page.getByRole('region', { name: 'Black box' });
  await card.scrollIntoViewIfNeeded();
  // The recorder runs from the start, camera included, and the card says so.
  await expect(card.getByLabel('Recorder status')).toHaveText('● REC · camera on');
  await expect(card.getByRole('switch', { name: 'Record the camera' })).toHaveAttribute('aria-checked', 'true');

  // The moment to find again: head turned to 30°, camera frames recorded, then STOP.
  expect(
    (await api('/api/control/look', { method: 'POST', body: JSON.stringify({ yaw: 30, duration: 0.5 }) })).status,
  ).toBe(200);
  await expect.poll(headYaw, { timeout: 10_000 }).toBeGreaterThan(29);
  const framesBefore = (await recorder()).channels['/camera/jpeg'] ?? 0;
  await expect
    .poll(async () => (await recorder()).channels['/camera/jpeg'] ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(framesBefore + 3);
  expect((await api('/api/control/stop', { method: 'POST' })).status).toBe(200);
  expect((await api('/api/console/resume', { method: 'POST' })).status).toBe(200);
  expect(
    (await api('/api/control/look', { method: 'POST', body: JSON.stringify({ yaw: -20, duration: 0.5 }) })).status,
  ).toBe(200);
  await expect.poll(headYaw, { timeout: 10_000 }).toBeLessThan(-19);

  // Save the last minute from the dashboard.
  await card.getByLabel('Save the last').selectOption('1');
  await card.getByRole('button', { name: 'Save recording' }).click();
  await expect(card.getByRole('status').first()).toContainText('Saved as');
  const row = card.getByRole('listitem').filter({ hasText: 'saved' });
  await expect(row).toHaveCount(1);

  // Replay: the STOP marker is on the timeline; jumping to it shows that moment.
  await row.getByRole('button', { name: 'Replay' }).click();
  const stopMarker = card.getByRole('button', { name: /^Jump to STOP marker/ });
  await expect(stopMarker).toHaveCount(1);
  const id = ((await (await api('/api/console/recordings')).json()) as RecordingsView).recordings[0]?.id ?? '';
  const summary = (await (await api(`/api/console/recordings/${id}/replay`)).json()) as ReplaySummary;
  const stop = summary.markers.find((m) => m.kind === 'stop');
  expect(stop).toBeDefined();
  const stopT = stop?.t ?? 0;
  const expectedFrame = summary.frames.filter((t) => t <= stopT).at(-1);
  expect(expectedFrame).toBeDefined();

  await stopMarker.click();
  const pose = card.getByTestId('replay-pose');
  await expect(pose).toContainText(/Head yaw \+(29|30)\.\d°/);
  await expect(
    card.getByRole('img', { name: 'Top view: body yaw' }).or(card.locator('svg[aria-label^="Top view"]')),
  ).toHaveAttribute('aria-label', /head yaw \+(29|30)\.\d°/);
  const frame = card.getByRole('img', { name: /^Camera frame at/ });
  await expect(frame).toHaveAttribute('data-t', String(expectedFrame));
  await expect
    .poll(() =>
      frame.evaluate(
        (img) =>
          (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
          (img as unknown as { naturalWidth: number }).naturalWidth > 0,
      ),
    )
    .toBe(true);
  // The receipts up to that moment end with the STOP's own.
  await expect(
    card
      .getByRole('listitem')
      .filter({ hasText: /^\S+ stop: .* \(token\)$/ })
      .last(),
  ).toBeVisible();

  // Play at 4× on the page's clock from the start: one second later the cursor is four seconds on.
  await card.getByLabel('Replay position').press('Home');
  await expect(card.getByLabel('Cursor')).toContainText('0:00.0 /');
  await card.getByRole('button', { name: '4×' }).click();
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 2000));
  await card.getByRole('button', { name: 'Play', exact: true }).click();
  await page.clock.runFor(1000);
  // (A recording shorter than that ends playback at its end.)
  const played = Math.min(4000, summary.duration);
  const offset = (ms: number) => `0:${String(Math.floor(ms / 1000)).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
  await expect(card.getByLabel('Cursor')).toContainText(`${offset(played)} /`);
  // Playing on, it offers Pause; having reached the end, it has stopped and offers Play again.
  if (played === summary.duration) await expect(card.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  else await card.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.clock.resume();

  // Download the .mcap: the official indexed reader opens it, camera and STOP included.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: 'Download .mcap' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Saved .*\.mcap$/);
  const bytes = new Uint8Array(await readFile(await download.path()));
  const reader = await McapIndexedReader.Initialize({
    readable: {
      size: async () => BigInt(bytes.length),
      read: async (offset, length) => bytes.slice(Number(offset), Number(offset + length)),
    },
  });
  const topics = new Map([...reader.channelsById.values()].map((c) => [c.id, c.topic]));
  const counts: Record<string, number> = {};
  for await (const m of reader.readMessages())
    counts[topics.get(m.channelId) ?? '?'] = (counts[topics.get(m.channelId) ?? '?'] ?? 0) + 1;
  expect(counts['/camera/jpeg']).toBeGreaterThan(3);
  expect(counts['/events']).toBeGreaterThan(0);
  expect(counts['/robot/head_pose']).toBe(counts['/robot/state']);
  expect(Buffer.from(bytes).includes(Buffer.from(cockpit.token))).toBe(false);
});
