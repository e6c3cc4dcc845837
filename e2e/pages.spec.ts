/**
 * The dashboard's pages (README "The dashboard"): every page has an address that opens it
 * directly and the Back button walks; the cockpit shows the camera, the head joystick and STOP
 * without scrolling at laptop, phone and phone-sideways sizes; axe finds nothing serious on any
 * page; the keyboard alone drives and stops; two fingers use the pad and the height slider at
 * once. Screenshots of every page at each size are attached.
 */
import { expect, test } from './fixtures/cockpit.ts';
import { horizontalOverflow, settleLayout, stretchedCheckboxes } from './pages/browser.ts';
import { restingYaw, stateYaw } from './pages/cockpit-api.ts';
import { stopPageTime } from './pages/page-time.ts';
import {
  closeSetupGuide,
  expectWithoutScrolling,
  marker,
  openPage,
  PAGES,
  seriousViolations,
  SETTINGS,
  SIZES,
} from './pages/shell.ts';

// Several tests rather than one, each well inside the test budget on a busy machine (all pages
// and settings sections with axe in one test ran past 60 s under `npm run test:busy`).
test('every page opens from its address, and axe finds nothing serious', async ({ page, cockpit }) => {
  await openPage(page, cockpit.url, cockpit.token);
  // Bookmarks: each address opens its page directly, in a fresh load.
  for (const entry of PAGES) {
    await page.goto(`${cockpit.url}/${entry.hash}`);
    await expect(marker(page, entry)).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: entry.tab }),
    ).toHaveAttribute('aria-current', 'page');
    expect(await seriousViolations(page), `axe on ${entry.hash}`).toEqual([]);
  }
});

test('every settings section opens from its address, and axe finds nothing serious', async ({ page, cockpit }) => {
  await openPage(page, cockpit.url, cockpit.token);
  for (const section of SETTINGS) {
    await page.goto(`${cockpit.url}/${section.hash}`);
    await expect(page.getByRole('region', { name: section.marker, exact: true }).first()).toBeVisible();
    expect(await seriousViolations(page), `axe on ${section.hash}`).toEqual([]);
  }
  // Older addresses still lead to their page.
  await page.goto(`${cockpit.url}/#security`);
  await expect(page.getByRole('region', { name: 'Passkeys' })).toBeVisible();
});

test('the tabs, Back and Forward walk the pages', async ({ page, cockpit }) => {
  await openPage(page, cockpit.url, cockpit.token);
  await expect(marker(page, PAGES[0])).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Pages' });
  await tabs.getByRole('link', { name: 'Moves' }).click();
  await expect(page).toHaveURL(/#\/moves$/);
  await tabs.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('region', { name: 'Versions' })).toContainText(/Robot Cockpit\s*\d+\.\d+\.\d+/);
  await expect(page.getByRole('region', { name: 'System' })).toContainText('Daemon version');
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Security and passkeys' })).toBeVisible();
  await page.goBack();
  await expect(marker(page, PAGES[3])).toBeVisible();
  await page.goBack();
  await expect(marker(page, PAGES[0])).toBeVisible();
  await page.goForward();
  await expect(marker(page, PAGES[3])).toBeVisible();
});

// Screenshots of every page at each size; none scrolls sideways, down to 320 px, and every
// checkbox is drawn as a box.
for (const size of [...SIZES, { width: 320, height: 640 }]) {
  test(`every page at ${size.width}×${size.height}: a screenshot, and no sideways scroll`, async ({
    page,
    cockpit,
  }, testInfo) => {
    await page.setViewportSize(size);
    await openPage(page, cockpit.url, cockpit.token);
    for (const entry of PAGES) {
      await page.goto(`${cockpit.url}/${entry.hash}`);
      await expect(marker(page, entry)).toBeVisible();
      await settleLayout(page);
      expect(
        await horizontalOverflow(page),
        `sideways scroll on ${entry.hash} at ${size.width} px`,
      ).toBeLessThanOrEqual(0);
      expect(await stretchedCheckboxes(page), `checkboxes on ${entry.hash} at ${size.width} px`).toEqual([]);
      const name = `${entry.tab.toLowerCase()}-${size.width}x${size.height}`;
      const file = testInfo.outputPath(`${name}.png`);
      await page.screenshot({ path: file });
      await testInfo.attach(name, { path: file, contentType: 'image/png' });
    }
  });
}

test('the cockpit shows the camera, the head joystick and STOP without scrolling at every size', async ({
  page,
  cockpit,
}) => {
  await openPage(page, cockpit.url, cockpit.token);
  await closeSetupGuide(page);
  const picture = page.getByRole('button', { name: /^Camera picture/ });
  const pad = page.getByRole('application', { name: 'Head joystick pad' });
  const stop = page.getByRole('button', { name: 'STOP' });
  for (const size of SIZES) {
    // Opened at that size, as that device would open it (the camera's details start folded on a phone).
    await page.setViewportSize(size);
    await page.reload();
    await expect(picture).toBeVisible();
    await settleLayout(page);
    for (const [what, locator] of [
      ['the camera picture', picture],
      ['the head joystick', pad],
      ['STOP', stop],
    ] as const) {
      await expectWithoutScrolling(page, locator, `${what} at ${size.width}×${size.height}`);
    }
    expect(await seriousViolations(page), `axe on the cockpit at ${size.width}×${size.height}`).toEqual([]);
  }
  // Sideways on a phone the picture fills the window, the pad and STOP over it.
  await page.setViewportSize({ width: 812, height: 375 });
  await settleLayout(page);
  const box = await picture.boundingBox();
  expect(box && Math.max(box.width / 812, box.height / 375)).toBeGreaterThan(0.98);
  // The sliders wait behind a button there; opened, they sit at the right, clear of the pad and STOP.
  const height = page.getByLabel('Set height');
  await expect(height).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Sliders' });
  await expectWithoutScrolling(page, toggle, 'the Sliders button sideways');
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide sliders' })).toHaveAttribute('aria-expanded', 'true');
  for (const [what, locator] of [
    ['the height slider', height],
    ['the head joystick', pad],
    ['STOP', stop],
  ] as const) {
    await expectWithoutScrolling(page, locator, `${what} with the sliders open sideways`);
  }
  expect(await seriousViolations(page), 'axe on the cockpit sideways with the sliders open').toEqual([]);
});

test('the keyboard alone opens pages, drives the head, stops and resumes, with focus always visible', async ({
  page,
  cockpit,
}) => {
  await page.clock.install();
  await openPage(page, cockpit.url, cockpit.token, '#/moves');
  await stopPageTime(page);
  // Tab reaches the tab bar; every focused control shows its outline.
  await page.keyboard.press('Tab');
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    const outline: unknown = await page.evaluate(
      '(() => { const s = getComputedStyle(document.activeElement); return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0; })()',
    );
    expect(outline, `focus ring on tab stop ${i + 1}`).toBe(true);
  }
  // `?` opens the shortcuts sheet; its Close button takes the focus back out.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await sheet.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Enter');
  await expect(sheet).toBeHidden();

  // 1 opens the cockpit; held arrows drive the head on page time.
  await page.locator('body').press('1');
  await expect(page).toHaveURL(/#\/cockpit$/);
  const demo = page.getByRole('switch', { name: 'Demo mode' });
  await demo.focus();
  await page.keyboard.press('Enter');
  await expect(demo).toHaveAttribute('aria-checked', 'true');
  await page.locator('body').focus();
  const start = await restingYaw(cockpit.url, cockpit.token);
  await page.keyboard.down('ArrowLeft');
  await page.clock.runFor(700);
  await page.keyboard.up('ArrowLeft');
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeGreaterThan(start + 15);

  // Escape stops; Resume is reached and pressed from the keyboard.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alert').getByText('Robot stopped')).toBeVisible();
  const resume = page.getByRole('button', { name: 'Resume' });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Robot stopped')).toHaveCount(0);
});

test('two fingers at once: one on the pad drives, the other moves the height slider', async ({ page, cockpit }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.clock.install();
  await openPage(page, cockpit.url, cockpit.token);
  const demo = page.getByRole('switch', { name: 'Demo mode' });
  await demo.click();
  await expect(demo).toHaveAttribute('aria-checked', 'true');
  const pad = page.getByRole('application', { name: 'Head joystick pad' });
  const height = page.getByLabel('Set height');
  // Both in reach of one hand: the pad's top just under the sticky header, the slider below it.
  await closeSetupGuide(page);
  const top = await pad.boundingBox();
  if (!top) throw new Error('the joystick pad has no box');
  await page.evaluate(`window.scrollBy(0, ${Math.round(top.y - 130)})`);
  await settleLayout(page);
  await stopPageTime(page);
  await expectWithoutScrolling(page, pad, 'the pad');
  await expectWithoutScrolling(page, height, 'the height slider');
  const padBox = await pad.boundingBox();
  const sliderBox = await height.boundingBox();
  if (!padBox || !sliderBox) throw new Error('the pad or the height slider is not on screen');
  const before = Number(await height.inputValue());
  const status = page.getByRole('region', { name: 'Head' }).getByText(/^(Ready|Driving)$/);

  const cdp = await page.context().newCDPSession(page);
  const padCentre = { x: padBox.x + padBox.width / 2, y: padBox.y + padBox.height / 2 };
  const sliderStart = { x: sliderBox.x + sliderBox.width * 0.2, y: sliderBox.y + sliderBox.height / 2 };
  const finger = (id: number, p: { x: number; y: number }) => ({
    id,
    x: p.x,
    y: p.y,
    radiusX: 4,
    radiusY: 4,
    force: 1,
  });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [finger(1, padCentre)] });
  await cdp.send('Input.dispatchTouchEvent', {
    type: 'touchStart',
    touchPoints: [finger(1, padCentre), finger(2, sliderStart)],
  });
  for (let step = 1; step <= 4; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [
        finger(1, { x: padCentre.x - (padBox.width / 2 - 4) * (step / 4), y: padCentre.y }),
        finger(2, { x: sliderStart.x + sliderBox.width * 0.7 * (step / 4), y: sliderStart.y }),
      ],
    });
  }
  await expect(status).toHaveText('Driving');
  const start = await stateYaw(cockpit.url, cockpit.token);
  await page.clock.runFor(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(status).toHaveText('Ready');
  await expect.poll(() => stateYaw(cockpit.url, cockpit.token)).toBeGreaterThan(start + 15);
  expect(Number(await height.inputValue())).toBeGreaterThan(before);
  await page.clock.runFor(300);
  await expect(page.getByRole('list', { name: /Event receipts/ })).toContainText(/look .*z \d+ mm/);
});

test('light and dark themes: the system preference first, then the switch, kept across reloads', async ({
  page,
  cockpit,
}) => {
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await openPage(page, cockpit.url, cockpit.token);
  const theme = () => page.evaluate('document.documentElement.dataset.theme');
  expect(await theme()).toBe('light');
  expect(await seriousViolations(page), 'axe in the light theme').toEqual([]);
  await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
  expect(await theme()).toBe('dark');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Switch to the light theme' })).toBeVisible();
  expect(await theme()).toBe('dark');
  // Reduced motion: transitions are off.
  const transition: unknown = await page.evaluate(
    'getComputedStyle(document.querySelector("[role=switch] .thumb")).transitionDuration',
  );
  expect(transition).toBe('0s');
  await page.goto(`${cockpit.url}/#/settings/about`);
  await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'As the system' }).click();
  expect(await theme()).toBe('light');
});
