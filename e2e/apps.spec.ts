/**
 * The robot's apps and the robot check against a real cockpit and its simulated robot: install
 * with live progress (and a failed one with its errors), start, the crash card, restart, stop;
 * a Wireless robot's app log followed live; the STOP ending a running app in every open tab; the
 * robot check flagging a silent microphone.
 * The crashing app dies only when the test says so (/sim/apps/crash).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { api } from './pages/cockpit-api.ts';

async function openDashboard(page: Page, url: string, token?: string): Promise<void> {
  await page.goto(token ? `${url}/?token=${encodeURIComponent(token)}#/apps` : `${url}/#/apps`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

async function sim(base: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path} answered ${res.status}`).toBe(200);
}

/** Installs and starts an app through the API, as another dashboard or a script would. */
async function runApp(url: string, token: string, name: string): Promise<void> {
  const job = await api(url, '/api/console/apps/install', { method: 'POST', token, body: { name } });
  expect(job.status).toBe(200);
  await expect
    .poll(async () => (await api(url, `/api/console/apps/jobs/${String(job.body.id)}`, { token })).body.status)
    .toBe('done');
  expect((await api(url, '/api/console/apps/start', { method: 'POST', token, body: { name } })).status).toBe(200);
}

test('apps page: install with progress, start, the crash card with its error lines, restart and stop', async ({
  page,
  cockpit,
}) => {
  await sim(cockpit.simUrl(), '/sim/apps', { crashAfterMs: null });
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Apps' });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByText('No app is running.')).toBeVisible();

  // A failed install keeps pip's lines.
  await card.getByRole('button', { name: 'Install broken_synth' }).click();
  const failed = card.getByRole('log', { name: 'Installing broken_synth failed: log' });
  await expect(failed).toContainText('ERROR: No matching distribution found for pyaudio==0.0.0');
  await expect(failed).toContainText("Job 'install' failed with error: Failed to install app 'broken_synth'");

  await card.getByRole('button', { name: 'Install clumsy_dancer' }).click();
  const log = card.getByRole('log', { name: 'Installed clumsy_dancer: log' });
  await expect(log).toContainText('Downloading clumsy_dancer from pollen-sim/clumsy_dancer');
  await expect(log).toContainText("Job 'install' completed successfully");
  const installed = card.getByRole('list', { name: 'Installed apps' });
  await expect(installed).toContainText('clumsy_dancer');

  // The start's answer ("starting") is held until the poll's frame has shown the app running:
  // the answer arriving after the frame must not put "Starting" back (overview-order.ts).
  let releaseStart!: () => void;
  const startAnswered = new Promise<void>((resolve) => (releaseStart = resolve));
  await page.route('**/api/console/apps/start', async (route) => {
    const response = await route.fetch();
    await startAnswered;
    await route.fulfill({ response });
  });
  await installed.getByRole('button', { name: 'Start clumsy_dancer', exact: true }).click();
  const running = card.getByRole('region', { name: 'Running app' });
  await expect(running).toContainText('clumsy_dancer');
  await expect(running).toContainText('Running');
  releaseStart();
  // The barrier: the page has taken the answer once its pending line is gone.
  await expect(card.getByRole('status').filter({ hasText: 'Starting clumsy_dancer' })).toHaveCount(0);
  await expect(running).toContainText('Running');
  await expect(running.getByText(/^Uptime \d+ s$/)).toBeVisible();
  await page.unroute('**/api/console/apps/start');

  await sim(cockpit.simUrl(), '/sim/apps/crash', {});
  // The shared poll reads the daemon every 2 s: the crash card follows.
  await expect(running).toContainText('Crashed');
  const lines = running.getByLabel('Last error lines');
  await expect(lines).toContainText('Process exited with code 1');
  await expect(lines).toContainText('RuntimeError: lost the beat: no audio frames for 2 s');
  await expect(running.getByText(/^Uptime/)).toHaveCount(0);

  await running.getByRole('link', { name: 'Open the log' }).click();
  await expect(card.getByRole('region', { name: 'App log' })).toContainText('simulated robot keeps no journal');

  await running.getByRole('button', { name: 'Restart' }).click();
  await expect(running).toContainText('Running');
  await running.getByRole('button', { name: 'Stop app' }).click();
  await expect(card.getByText('No app is running.')).toBeVisible();
  const status = await fetch(`${cockpit.simUrl()}/api/apps/current-app-status`);
  expect(await status.json()).toBeNull();
});

test('apps page: an empty store (a robot that cannot reach Hugging Face) is not "every app installed"', async ({
  page,
  cockpit,
}) => {
  // The real daemon answers an empty store when it cannot reach Hugging Face (docs/daemon.md).
  await page.route('**/api/console/apps/store', (route) => route.fulfill({ json: [] }));
  await openDashboard(page, cockpit.url, cockpit.token);
  const card = page.getByRole('region', { name: 'Apps' });
  await expect(
    card.getByText('The store lists no apps: the robot reads it from Hugging Face, so it may be offline.'),
  ).toBeVisible();
  await expect(card.getByText('Every app of the store is installed.')).toHaveCount(0);
});

test("apps page: a Wireless robot's app log, its new lines added while it is open", async ({ page, cockpit }) => {
  await sim(cockpit.simUrl(), '/sim/apps', { crashAfterMs: null });
  await sim(cockpit.simUrl(), '/sim/wireless', { on: true });
  try {
    // The cockpit reads the daemon's status once a second; the logs answer once it has seen a Wireless build.
    await expect
      .poll(
        async () =>
          (await api(cockpit.url, '/api/console/apps/logs?app=clumsy_dancer', { token: cockpit.token })).body.available,
      )
      .toBe(true);
    await openDashboard(page, cockpit.url, cockpit.token);
    await runApp(cockpit.url, cockpit.token, 'clumsy_dancer');
    const card = page.getByRole('region', { name: 'Apps' });
    const running = card.getByRole('region', { name: 'Running app' });
    await expect(running).toContainText('Running');
    await sim(cockpit.simUrl(), '/sim/apps/crash', {});
    await expect(running).toContainText('Crashed');

    await running.getByRole('link', { name: 'Open the log' }).click();
    const log = card.getByRole('region', { name: 'App log' });
    await expect(log).toContainText("From the daemon's log stream");
    await expect(log).toContainText('RuntimeError: lost the beat: no audio frames for 2 s');
    const runs = async () =>
      ((await log.locator('pre').textContent()) ?? '').split('Starting app clumsy_dancer').length - 1;
    const before = await runs();
    // The restarted run's lines arrive in the open log over the socket, without opening it again.
    await running.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(runs).toBe(before + 1);
    await expect(log).toContainText('clumsy_dancer: listening for a beat');
    await running.getByRole('button', { name: 'Stop app' }).click();
    await expect(card.getByText('No app is running.')).toBeVisible();
  } finally {
    await sim(cockpit.simUrl(), '/sim/wireless', { on: false });
  }
});

test('STOP stops the running app in every open tab, and resume does not restart it', async ({
  page,
  context,
  browserErrors,
  cockpit,
}) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const other = await context.newPage();
  browserErrors.watch(other);
  await openDashboard(other, cockpit.url);
  await runApp(cockpit.url, cockpit.token, 'hello_wave');
  for (const tab of [page, other]) {
    await expect(tab.getByRole('region', { name: 'Running app' })).toContainText('hello_wave');
  }

  await page.getByRole('button', { name: 'STOP', exact: true }).click();
  for (const tab of [page, other]) {
    await expect(tab.getByRole('alert').getByText('Robot stopped')).toBeVisible();
    await expect(tab.getByRole('region', { name: 'Apps' }).getByText('No app is running.')).toBeVisible();
    // The receipts are on the cockpit page.
    await tab.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Cockpit' }).click();
    await expect(tab.getByRole('list', { name: /Event receipts/ })).toContainText('app hello_wave stopped');
  }
  expect(await (await fetch(`${cockpit.simUrl()}/api/apps/current-app-status`)).json()).toBeNull();

  await other.getByRole('button', { name: 'Resume' }).click();
  for (const tab of [page, other]) {
    await expect(tab.getByRole('list', { name: /Event receipts/ })).toContainText('app hello_wave stays stopped');
    await expect(tab.getByText('Robot stopped')).toHaveCount(0);
  }
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Apps' }).click();
  await expect(page.getByRole('region', { name: 'Apps' }).getByText('No app is running.')).toBeVisible();
  expect(await (await fetch(`${cockpit.simUrl()}/api/apps/current-app-status`)).json()).toBeNull();
});

// The robot's microphone comes with the daemon's WebRTC camera, not with the synthetic one the
// other tests use (e2e/fixtures/cockpit.ts).
test.describe('with the daemon camera and its microphone', () => {
  test.use({ cockpitEnv: { ROBOT_CAMERA: 'daemon' } });
  test('the robot check flags a microphone that records only zeros', async ({ page, cockpit }) => {
    await sim(cockpit.simUrl(), '/sim/microphone/silent', { on: true });
    await openDashboard(page, cockpit.url, cockpit.token);
    const card = page.getByRole('region', { name: 'Robot check' });
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('button', { name: 'Check the robot' }).click();
    const mic = card.getByRole('listitem', { name: 'Microphone level' });
    await expect(mic).toContainText('Failed', { timeout: 30_000 });
    await expect(mic).toContainText(/The microphone recorded (only zeros|digital silence) for 3 s/);
    await expect(mic).toContainText('known Linux/USB audio fault');
    await expect(mic.getByRole('img', { name: 'Microphone level over 3 s' })).toBeVisible();
    await expect(card.getByRole('listitem', { name: 'Motors answer, no error' })).toContainText('OK');
    await expect(card.getByRole('status').filter({ hasText: /failed/ })).toBeVisible();
  });
});
