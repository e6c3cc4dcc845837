/**
 * The diagnostics card against a real cockpit: the recent structured log,
 * newest first, with a level filter and folded scope and fields, and the diagnostics bundle saved
 * as a JSON file through the page's credential, with no owner token in it.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures/cockpit.ts';

test('the diagnostics card shows the log newest first, filters by level and downloads the bundle', async ({
  page,
  cockpit,
}) => {
  // Page time is the test's: the card's settle delay and refresh interval are brought forward
  // once what they wait for is there, instead of being waited out.
  await page.clock.install();
  await page.goto(`${cockpit.url}/?token=${encodeURIComponent(cockpit.token)}#/settings/diagnostics`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  const card = page.getByRole('region', { name: 'Diagnostics' });
  await card.scrollIntoViewIfNeeded();
  const log = card.getByRole('list', { name: 'Recent log, newest first' });

  // A start-up record at the default level (info): the simulated daemon saying where it listens.
  // The card first reads 1.5 s after the first state frame (renderer/src/features/diagnostics/DiagnosticsCard.svelte).
  await page.clock.fastForward(1500);
  const started = log.getByRole('listitem').filter({ hasText: 'simulated daemon listening' });
  await expect(started).toBeVisible();
  await expect(started.locator('summary')).toContainText(/^\s*\d\d:\d\d:\d\d\s*info\s*simulated daemon listening\s*$/);
  // Scope and fields stay folded until the line is opened.
  const fields = started.locator('pre');
  await expect(fields).toBeHidden();
  await started.locator('summary').click();
  await expect(fields).toBeVisible();
  await expect(fields).toContainText('scope=cockpit.sim.sim');
  await expect(fields).toContainText(/port=\d+/);

  // A warning provoked now: a chat turn without a model answers 503, logged as "request failed".
  const chat = await fetch(`${cockpit.url}/api/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cockpit.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'hello' }),
  });
  expect(chat.status).toBe(503);
  // The card refreshes by itself every 4 s while it is on screen; the new record lands on top.
  await page.clock.fastForward(4000);
  const warning = log.getByRole('listitem').first();
  await expect(warning).toContainText('request failed');
  await expect(warning).toContainText('warn');
  await warning.locator('summary').click();
  await expect(warning.locator('pre')).toContainText('path=/api/chat');
  await expect(warning.locator('pre')).toContainText('code=NOT_CONFIGURED');
  // The unfolded start-up line stays unfolded across refreshes.
  await expect(fields).toBeVisible();

  // Warnings and above: the start-up records go, the warning stays.
  await card.getByLabel('Level').selectOption('warn');
  await expect(card.getByText(/records? at warn or above/)).toBeVisible();
  await expect(started).toHaveCount(0);
  await expect(log.getByRole('listitem').filter({ hasText: 'request failed' })).toHaveCount(1);
  for (const level of await log.locator('.level-tag').allInnerTexts()) expect(['WARN', 'ERROR']).toContain(level);

  // The bundle, fetched with the bearer and saved as a file.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download diagnostics bundle' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^robot-cockpit-diagnostics-[\dT-]+Z\.json$/);
  const text = await readFile(await download.path(), 'utf8');
  const bundle = JSON.parse(text) as Record<string, unknown>;
  expect(bundle).toHaveProperty('versions');
  expect(typeof bundle['versions']).toBe('object');
  expect(text).toContain('request failed');
  expect(text).not.toContain(cockpit.token);
  await expect(card.getByRole('status')).toContainText(`Saved as ${download.suggestedFilename()}.`);
});
