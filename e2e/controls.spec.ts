/**
 * The operator controls against a real cockpit and its simulated robot: the keyboard joystick
 * (hold to move, quiet while typing), the latched STOP seen in every open tab, the move library,
 * speech, and the screens at phone and laptop widths.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/cockpit.ts';
import { smallTouchTargets } from './pages/browser.ts';
import { api, restingYaw, stateYaw } from './pages/cockpit-api.ts';
import { stopPageTime } from './pages/page-time.ts';
import { attachScreenshot } from './pages/screenshots.ts';

async function openDashboard(page: Page, url: string, token?: string): Promise<void> {
  await page.goto(token ? `${url}/?token=${encodeURIComponent(token)}` : `${url}/`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

/** Demo mode pauses the autonomous personas, so only the test moves the head. */
async function demoModeOn(page: Page): Promise<void> {
  const demo = page.getByRole('switch', { name: 'Demo mode' });
  await demo.click();
  await expect(demo).toHaveAttribute('aria-checked', 'true');
}

/** Holds a key for `ms` of page time: the joystick sends on the page clock. */
async function holdKey(page: Page, key: string, ms: number): Promise<void> {
  await page.keyboard.down(key);
  await page.clock.runFor(ms);
  await page.keyboard.up(key);
}

/** The dashboard with demo mode on and page time stopped: only the test moves the head, and time. */
async function openToDrive(page: Page, cockpit: { url: string; token: string }) {
  await page.clock.install();
  await openDashboard(page, cockpit.url, cockpit.token);
  await demoModeOn(page);
  await stopPageTime(page);
  return { status: page.getByRole('region', { name: 'Head' }).getByText(/^(Ready|Driving)$/) };
}

test('held keys drive the head and it holds when they are let go', async ({ page, cockpit }) => {
  const { status } = await openToDrive(page, cockpit);
  const yawReadout = page.getByLabel('Head yaw', { exact: true });
  const start = await restingYaw(cockpit.url, cockpit.token);

  // Left turns the head to the robot's left: positive yaw, 45°/s while held, so 700 ms of page
  // time is about 33°. Let go, the page sends nothing more and the head rests where it was sent.
  await holdKey(page, 'ArrowLeft', 700);
  await expect(status).toHaveText('Ready');
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeGreaterThan(start + 15);
  await expect(yawReadout).toHaveText(/^\+\d+\.\d°$/);
  // Page time going on without a key held: a driver still running would turn the head further.
  await page.clock.runFor(1000);
  const held = await restingYaw(cockpit.url, cockpit.token);
  expect(held - start).toBeGreaterThan(25);
  expect(held - start).toBeLessThan(40);

  await holdKey(page, 'd', 700);
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeLessThan(held - 15);
  await expect(page.getByRole('list', { name: /Event receipts/ })).toContainText('joystick');
});

test('typing does not drive, nor do keys with the keyboard switched off; the pad drives', async ({ page, cockpit }) => {
  const { status } = await openToDrive(page, cockpit);
  // Letters typed into the say box are text, not steering: the driver never starts (the status
  // would say Driving from the key down on), so page time passing sends nothing.
  const before = await restingYaw(cockpit.url, cockpit.token);
  const box = page.getByLabel('Text the robot says');
  await box.click();
  await page.keyboard.down('a');
  await page.clock.runFor(600);
  await expect(status).toHaveText('Ready');
  await page.keyboard.up('a');
  await page.keyboard.type('aaaa dddd');
  await page.clock.runFor(500);
  await expect(box).toHaveValue(/aaaa dddd$/);

  // With the keyboard switched off, keys on the page do nothing either.
  await page.getByLabel('Keyboard drives the head').uncheck();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.down('ArrowLeft');
  await page.clock.runFor(500);
  await expect(status).toHaveText('Ready');
  await page.keyboard.up('ArrowLeft');
  expect(Math.abs((await restingYaw(cockpit.url, cockpit.token)) - before)).toBeLessThan(1);

  // The pad drives by pointer: held to the left of its centre, the head turns left.
  const pad = page.getByRole('application', { name: 'Head joystick pad' });
  await pad.scrollIntoViewIfNeeded();
  const area = await pad.boundingBox();
  if (!area) throw new Error('the joystick pad is not on screen');
  await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
  await page.mouse.down();
  await page.mouse.move(area.x + 4, area.y + area.height / 2, { steps: 4 });
  await expect(status).toHaveText('Driving');
  await page.clock.runFor(700);
  await page.mouse.up();
  await expect(status).toHaveText('Ready');
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeGreaterThan(before + 15);
});

test('STOP latches in every open tab, the API refuses motion, Resume clears it everywhere', async ({
  page,
  context,
  browserErrors,
  cockpit,
}, testInfo) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  // A second tab of the same browser: it signs in with the stored token.
  const other = await context.newPage();
  browserErrors.watch(other);
  await openDashboard(other, cockpit.url);

  await page.getByRole('button', { name: 'STOP' }).click();
  for (const tab of [page, other]) {
    await expect(tab.getByRole('alert').getByText('Robot stopped')).toBeVisible();
    await expect(tab.getByRole('button', { name: 'Wake', exact: true })).toBeDisabled();
  }
  const refused = await api(cockpit.url, '/api/control/look', {
    method: 'POST',
    token: cockpit.token,
    body: { yaw: 10 },
  });
  expect(refused).toMatchObject({ status: 409, body: { code: 'STOP_LATCHED' } });
  await expect(other.getByRole('list', { name: /Event receipts/ })).toContainText('latched until resume');
  await attachScreenshot(other, testInfo, 'stopped', 1280, { fullPage: false });
  await attachScreenshot(other, testInfo, 'stopped', 375, { fullPage: false });

  await other.getByRole('button', { name: 'Resume' }).click();
  for (const tab of [page, other]) {
    await expect(tab.getByText('Robot stopped')).toHaveCount(0);
    await expect(tab.getByRole('button', { name: 'Wake', exact: true })).toBeEnabled();
  }
  const allowed = await api(cockpit.url, '/api/control/look', {
    method: 'POST',
    token: cockpit.token,
    body: { yaw: 10 },
  });
  expect(allowed.status).toBe(200);
});

test('Escape stops from anywhere, even a text field; Resume works from the keyboard alone', async ({
  page,
  cockpit,
}) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  await page.getByLabel('Text the robot says').click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alert').getByText('Robot stopped')).toBeVisible();
  const refused = await api(cockpit.url, '/api/control/look', {
    method: 'POST',
    token: cockpit.token,
    body: { yaw: 10 },
  });
  expect(refused).toMatchObject({ status: 409, body: { code: 'STOP_LATCHED' } });
  // Resume with the keyboard alone.
  await page.getByRole('button', { name: 'Resume' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Robot stopped')).toHaveCount(0);
});

test.describe('at test speed', () => {
  // The test presses a control button every ~150 ms on a quiet machine, faster than the default
  // per-client limit of 5 control requests a second (the limiter has its own tests).
  test.use({ cockpitEnv: { ROBOT_RATE_LIMIT: '100' } });

  test('moves, speech and the robot card send their controls; the feed names the credential', async ({
    page,
    cockpit,
  }) => {
    await page.clock.install();
    await openDashboard(page, cockpit.url, cockpit.token);
    const feed = page.getByRole('list', { name: /Event receipts/ });
    const tabs = page.getByRole('navigation', { name: 'Pages' });

    // The whole library is on the Moves page; the receipts on the cockpit.
    await tabs.getByRole('link', { name: 'Moves' }).click();
    const moves = page.getByRole('list', { name: 'Moves' });
    await expect(moves.getByRole('button').first()).toBeVisible();
    await page.getByRole('group', { name: 'Family' }).getByRole('button', { name: 'answers' }).click();
    await expect(moves.getByRole('button', { name: 'amazed 1' })).toHaveCount(0);
    await page.getByPlaceholder('Search moves').fill('yes');
    await moves.getByRole('button', { name: 'yes 1', exact: true }).click();
    // A star takes a move off (or puts it on) the cockpit's quick bar.
    const star = moves.getByRole('button', { name: 'Favourite: yes 1' });
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await tabs.getByRole('link', { name: 'Cockpit' }).click();
    await expect(feed).toContainText('express yes1');
    const favourites = page.getByRole('list', { name: 'Favourite moves' });
    await expect(favourites.getByRole('button', { name: 'no 1', exact: true })).toBeVisible();
    await expect(favourites.getByRole('button', { name: 'yes 1', exact: true })).toHaveCount(0);
    await favourites.getByRole('button', { name: 'no 1', exact: true }).click();
    await expect(feed).toContainText('express no1');
    await expect(feed.getByText('owner token').first()).toBeVisible();

    await page.getByLabel('Text the robot says').fill('Hello from the cockpit');
    await page.getByRole('button', { name: 'Say', exact: true }).click();
    await expect(feed).toContainText('say "Hello from the cockpit"');

    // The showcase reel shows its step while it runs, and how its last run ended.
    await page.getByRole('button', { name: 'Start reel' }).click();
    await expect(page.getByText(/^Step \d+ of \d+/)).toBeVisible();
    await page.getByRole('button', { name: 'Abort reel' }).click();
    await expect(page.getByText(/^Last run aborted/)).toBeVisible();
    await expect(feed).toContainText('reel aborted');

    await page.getByRole('button', { name: 'Relaxed' }).click();
    await expect(page.getByRole('button', { name: 'Relaxed' })).toHaveAttribute('aria-pressed', 'true');
    await expect(feed).toContainText('motors disabled');

    // The sliders send once their changes pause (each daemon volume call plays a sound). Page time
    // stands still from here (the joystick's sends and the sliders' settle windows run only when the
    // test moves it), so key presses land in one settle window however slowly the machine types them.
    await stopPageTime(page);
    const volume = page.getByLabel('Volume');
    await volume.fill('70');
    await page.clock.runFor(300);
    await expect(feed).toContainText('volume 70');

    // The height slider sends one look (keeping the rest of the pose) once the keys pause.
    const height = page.getByLabel('Set height');
    await height.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.clock.runFor(300);
    await expect(feed).toContainText(/look .*z 20 mm in 0\.8 s/);

    // Nothing more goes out: page time runs past every settle window, then Home is the barrier:
    // once its receipt is in the feed, anything the sliders sent before it would be too.
    await page.clock.runFor(2000);
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await expect(feed).toContainText('home');
    await expect(feed.getByText(/^volume /)).toHaveCount(1);
    await expect(feed.getByText(/ in 0\.8 s$/)).toHaveCount(1);
  });
});

test('a move played to its end shows its length on the Moves page', async ({ page, cockpit }) => {
  await openDashboard(page, cockpit.url, cockpit.token);
  const tabs = page.getByRole('navigation', { name: 'Pages' });
  await tabs.getByRole('link', { name: 'Moves' }).click();
  const moves = page.getByRole('list', { name: 'Moves' });
  const length = moves
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: 'yes 1', exact: true }) })
    .locator('.len');
  await expect(length).toHaveText('');
  await expect(page.getByText(/length shows once it has played here/)).toBeVisible();
  await moves.getByRole('button', { name: 'yes 1', exact: true }).click();
  // The cockpit learns the length when the daemon says the move completed.
  const learned = async () => {
    const library = (await api(cockpit.url, '/api/emotions', { token: cockpit.token })).body as {
      moves: { name: string; seconds: number | null }[];
    };
    return library.moves.find((m) => m.name === 'yes1')?.seconds ?? null;
  };
  await expect.poll(learned).not.toBeNull();
  // Opened again, the page asks for the library again and shows it.
  await tabs.getByRole('link', { name: 'Cockpit' }).click();
  await tabs.getByRole('link', { name: 'Moves' }).click();
  await expect(length).toHaveText(/^Length: ?\d+(\.\d)? s$/);
});

test('a library the robot could only partly list says which dataset is missing', async ({ page, cockpit }) => {
  // The cockpit's answer when one dataset is absent from the robot's hub cache (move-library.ts).
  await page.route('**/api/emotions', async (route) => {
    const library = (await (await route.fetch()).json()) as Record<string, unknown>;
    const missing = [{ dataset: 'dances', code: 'DAEMON_ERROR', error: 'daemon refused move list (404)' }];
    await route.fulfill({ json: { ...library, missing } });
  });
  await openDashboard(page, cockpit.url, cockpit.token);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Moves' }).click();
  await expect(
    page.getByRole('list', { name: 'Moves' }).getByRole('button', { name: 'yes 1', exact: true }),
  ).toBeVisible();
  await expect(
    page.getByText('Some moves are missing: the robot could not list dances (daemon refused move list (404)).'),
  ).toBeVisible();
});

test('the controls fit a phone and a laptop, with the STOP always in reach', async ({ page, cockpit }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await openDashboard(page, cockpit.url, cockpit.token);
  await expect(page.getByRole('list', { name: 'Favourite moves' }).getByRole('button').first()).toBeVisible();
  expect(await smallTouchTargets(page)).toEqual([]);
  const stop = page.getByRole('button', { name: 'STOP' });
  for (const scroll of ['0', 'document.body.scrollHeight']) {
    await page.evaluate(`window.scrollTo(0, ${scroll})`);
    await expect(stop).toBeInViewport({ ratio: 1 });
  }
  await page.evaluate('window.scrollTo(0, 0)');
  await attachScreenshot(page, testInfo, 'controls', 375, { fullPage: false });
  await attachScreenshot(page, testInfo, 'controls-full', 375);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await expect(stop).toBeInViewport({ ratio: 1 });
  await page.evaluate('window.scrollTo(0, 0)');
  await attachScreenshot(page, testInfo, 'controls', 1280);
});
