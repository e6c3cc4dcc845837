/**
 * The agent card against a real cockpit: with ROBOT_MODEL_* pointing at the fake OpenAI server
 * (started here, on port 0) an Ask streams its answer into the log and a tool call folds; without
 * a model the card says so, and the provider is set up, tested and saved from the dashboard
 * without the stored key ever coming back to the page.
 */
import type { Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../server/agent/providers/testing/fake-openai.ts';
import { defaultScript } from '../server/agent/providers/testing/fake-script.ts';
import { expect, test as base } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';
import { attachScreenshot } from './pages/screenshots.ts';

const ANSWER = 'Hello from the fake model. This answer arrives four characters at a time, like a real stream.';
/** The role frame, then two pieces of four characters: where the test holds the stream. */
const HELD_AFTER_FRAMES = 3;

async function openDashboard(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/?token=${encodeURIComponent(token)}#/agent`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

const withModel = base.extend<{ model: FakeOpenAi }>({
  // Playwright reads the fixtures a fixture needs from its first parameter: this one needs none.
  // eslint-disable-next-line no-empty-pattern
  model: async ({}, use) => {
    const model = await startFakeOpenAi({
      script: (request) =>
        /^hello robot$/i.test(request.lastUserText) ? { kind: 'answer', text: ANSWER } : defaultScript(request),
    });
    await use(model);
    await model.close();
  },
  cockpitEnv: async ({ model }, use) => {
    await use({ ROBOT_MODEL_PROVIDER: 'openai', ROBOT_MODEL_BASE_URL: model.url, ROBOT_MODEL: 'fake-model' });
  },
});

withModel(
  'an Ask streams its answer into the log; a tool call folds its input and result',
  async ({ page, cockpit, model }, testInfo) => {
    await openDashboard(page, cockpit.url, cockpit.token);
    const card = page.getByRole('region', { name: 'Agent' });
    await expect(card.getByText('OpenAI-compatible · fake-model')).toBeVisible();
    const box = card.getByLabel('Ask the robot');
    const log = card.getByRole('list', { name: 'Agent log' });

    // Shift+Enter is a new line, not a send.
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await expect(box).toHaveValue('first line\nsecond line');
    await expect(card.getByText('22/4000')).toBeVisible();
    // (The thinker persona may ask the model meanwhile: only the box's text must not have gone out.)
    expect(model.requests.filter((r) => r.lastUserText.includes('first line'))).toEqual([]);

    // The model holds its stream part-way, so "still streaming" lasts until the test releases it.
    model.hold(HELD_AFTER_FRAMES, (request) => request.lastUserText === 'Hello robot');
    await box.fill('Hello robot');
    await box.press('Enter');
    await expect(log.getByText('Hello robot', { exact: true })).toBeVisible();
    await model.held();
    // While the answer streams: the row is marked and shows what came so far, the box is closed and says so.
    const streaming = log.getByRole('listitem').filter({ hasText: 'streaming…' });
    await expect(streaming.locator('p')).toHaveText(ANSWER.slice(0, 8));
    await expect(box).toBeDisabled();
    await expect(card.getByText('The robot is answering…')).toBeVisible();
    model.release();
    const answer = log.getByRole('listitem').filter({ hasText: 'Hello from the fake model' });
    await expect(answer.locator('p')).toHaveText(ANSWER);
    await expect(answer.getByText('streaming…')).toHaveCount(0);
    await expect(box).toBeEnabled();
    expect(model.requests.some((r) => r.lastUserText === 'Hello robot')).toBe(true);

    // The default script turns "look left" into a look tool call, then says "Done.".
    await box.fill('Please look left');
    await box.press('Enter');
    const tool = log.getByRole('listitem').filter({ has: page.locator('summary', { hasText: 'look · done' }) });
    await expect(tool).toBeVisible();
    await tool.locator('summary').click();
    await expect(tool.locator('pre').first()).toContainText('"yaw": 30');
    await expect(tool.locator('pre').nth(1)).toContainText('"ok": true');
    await expect(log.getByText('Done.', { exact: true })).toBeVisible();
    await expect(box).toBeEnabled();

    // The persona filter shows one persona's rows.
    await card.getByRole('group', { name: 'Persona' }).getByRole('button', { name: 'dashboard' }).click();
    await expect(log.getByText('Hello robot', { exact: true })).toBeVisible();

    await attachScreenshot(page, testInfo, 'agent', 1280, { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await card.scrollIntoViewIfNeeded();
    await attachScreenshot(page, testInfo, 'agent', 375, { fullPage: false });
  },
);

base(
  'without a model the card says so; the provider is set up, tested and saved, the key never shown',
  async ({ page, cockpit }, testInfo) => {
    const key = 'sk-test-e2e-0123456789';
    const model = await startFakeOpenAi({ key });
    try {
      await openDashboard(page, cockpit.url, cockpit.token);
      const card = page.getByRole('region', { name: 'Agent' });
      await expect(card.getByText('No model is configured, so the robot cannot answer.')).toBeVisible();
      await expect(card.getByRole('button', { name: 'Ask', exact: true })).toBeDisabled();
      await card.getByRole('button', { name: 'Set up a model provider' }).click();

      const form = card.getByRole('form', { name: 'Model provider' });
      await form.getByLabel('Provider').selectOption('openai');
      await form.getByLabel('Base URL').fill(model.url);
      await form.getByLabel('Model').fill('fake-model');
      await form.getByLabel('API key').fill('sk-wrong');
      await form.getByRole('button', { name: 'Test connection' }).click();
      await expect(form.getByText(/^Test failed: /)).toBeVisible();
      await form.getByLabel('API key').fill(key);
      await form.getByRole('button', { name: 'Test connection' }).click();
      await expect(form.getByText(/^The model fake-model answered in \d+ ms\.$/)).toBeVisible();
      await attachScreenshot(page, testInfo, 'agent-settings', 1280, { fullPage: false });

      await form.getByRole('button', { name: 'Save settings' }).click();
      await expect(form.getByText('Saved.')).toBeVisible();
      await expect(form.getByText('A key is stored.')).toBeVisible();
      expect(await page.content()).not.toContain(key);
      const saved = await api(cockpit.url, '/api/console/agent/settings', { token: cockpit.token });
      expect(saved.body).toMatchObject({ provider: 'openai', model: 'fake-model', hasKey: true });
      expect(JSON.stringify(saved.body)).not.toContain(key);
      await expect(card.getByText('OpenAI-compatible · fake-model')).toBeVisible();
      await expect(card.getByText('No model is configured, so the robot cannot answer.')).toHaveCount(0);

      await page.setViewportSize({ width: 375, height: 812 });
      await form.scrollIntoViewIfNeeded();
      await attachScreenshot(page, testInfo, 'agent-settings', 375, { fullPage: false });
      await page.setViewportSize({ width: 1280, height: 800 });

      await form.getByRole('button', { name: 'Close' }).click();
      const box = card.getByLabel('Ask the robot');
      await box.fill('Hi there');
      await box.press('Enter');
      await expect(card.getByRole('list', { name: 'Agent log' }).getByText('You said: Hi there')).toBeVisible();

      // Clearing the key: the cockpit forgets it.
      await card.getByRole('button', { name: 'Model settings' }).click();
      await form.getByRole('button', { name: 'Clear key' }).click();
      await expect(form.getByText('The stored key is removed when you save.')).toBeVisible();
      await form.getByRole('button', { name: 'Save settings' }).click();
      await expect(form.getByText('Saved.')).toBeVisible();
      expect((await api(cockpit.url, '/api/console/agent/settings', { token: cockpit.token })).body.hasKey).toBe(false);
    } finally {
      await model.close();
    }
  },
);
