/**
 * The personas card against a real cockpit: the messenger is set up from the dashboard against
 * the fake bot API (started here, on port 0), answers a stranger only with the chat id while
 * pairing, and a click allows that chat; the voice listener, pointed at a microphone that does
 * not exist, says so with its next try, and mutes. Secrets typed in the forms never come back.
 */
import type { Page } from '@playwright/test';
import { startFakeBotApi, type FakeBotApi } from '../server/personas/messenger/testing/fake-bot-api.ts';
import { expect, test as base } from './fixtures/cockpit.ts';
import { attachScreenshot } from './pages/screenshots.ts';

const test = base.extend<{ bot: FakeBotApi }>({
  // Playwright reads the fixtures a fixture needs from its first parameter: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  bot: async ({}, use) => {
    const bot = await startFakeBotApi();
    await use(bot);
    await bot.close();
  },
});

async function openCard(page: Page, url: string, token: string) {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#/settings/personas`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  const card = page.getByRole('region', { name: 'Personas' });
  await expect(card.getByText('voice off · messenger off')).toBeVisible();
  return card;
}

test('messenger: pairing mode answers with the chat id, and the owner allows the chat with a click', async ({
  page,
  cockpit,
  bot,
}, testInfo) => {
  const card = await openCard(page, cockpit.url, cockpit.token);
  await card.getByRole('button', { name: 'Messenger settings…' }).click();
  await card.getByLabel('Bot API').fill(bot.url);
  await card.getByLabel('Bot token').fill(bot.token);
  await card.getByRole('button', { name: 'Save messenger settings' }).click();
  await expect(card.getByText('Saved.')).toBeVisible();
  await card.getByRole('switch', { name: 'Answer messages' }).click();
  await expect(card.getByText(/@cockpit_test_bot: pairing mode/)).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Messenger bot @cockpit_test_bot' })).toBeVisible();

  bot.userSends({ id: 4242, first_name: 'Ada' }, 'hello robot');
  const allow = card.getByRole('button', { name: 'Allow Ada' });
  await expect(allow).toBeVisible({ timeout: 10_000 });
  expect(bot.sent).toEqual([
    expect.objectContaining({ chatId: 4242, text: expect.stringContaining('Your chat id is 4242.') }),
  ]);
  await attachScreenshot(page, testInfo, 'personas-pairing', 390);
  await allow.click();
  await expect(card.getByRole('button', { name: 'Remove Ada (4242)' })).toBeVisible();
  await expect(card.getByText(/answering allowed chats/)).toBeVisible();

  const view = await page.request.get(`${cockpit.url}/api/console/personas`, {
    headers: { authorization: `Bearer ${cockpit.token}` },
  });
  expect(await view.text()).not.toContain(bot.token);
  expect(await page.content()).not.toContain(bot.token);
  await attachScreenshot(page, testInfo, 'personas-allowed', 1280);
});

test.describe('with the daemon camera, whose WebRTC session carries the robot microphone', () => {
  test.use({ cockpitEnv: { ROBOT_CAMERA: 'daemon' } });

  test('voice: a microphone that cannot be opened is reported with the next try; mute closes it', async ({
    page,
    cockpit,
  }) => {
    const card = await openCard(page, cockpit.url, cockpit.token);
    await card.getByRole('button', { name: 'Voice settings…' }).click();
    // The robot's own microphone is the default while the camera is the daemon's.
    const menu = card.getByRole('combobox', { name: 'Microphone' });
    await expect(menu).toHaveValue('daemon');
    await menu.selectOption({ label: 'Another capture device or a file…' });
    const source = card.getByRole('textbox', { name: 'Device or file' });
    await source.fill('robot');
    await expect(card.getByText(/^Use daemon, device, device:<name>/)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Save voice settings' })).toBeDisabled();
    await source.fill('alsa:no-such-card');
    await card.getByLabel('API key').fill('sk-never-shown');
    await card.getByRole('button', { name: 'Save voice settings' }).click();
    await expect(card.getByText('Saved.')).toBeVisible();

    await card.getByRole('switch', { name: 'Listen and answer' }).click();
    await expect(card.getByText(/^ffmpeg .*\(next try in \d+ s\)$/)).toBeVisible({ timeout: 10_000 });
    await expect(card.getByText(/^Last problem: ffmpeg/)).toBeVisible();
    await card.getByRole('switch', { name: 'Mute microphone' }).click();
    await expect(card.getByText('muted: not listening')).toBeVisible();
    await expect(card.getByText('voice on · messenger off')).toBeVisible();
    expect(await page.content()).not.toContain('sk-never-shown');
  });
});
