/**
 * The wheeled-robot dashboard against a real wheeled server with the simulated base: a passkey
 * (Chromium's virtual authenticator, on localhost) signs in and yields the JWT; the keyboard
 * drives the base and the map follows; the chat streams a reply; the token console mints and
 * revokes a service token.
 */
import type { Page } from '@playwright/test';
import { horizontalOverflow, settleLayout } from './pages/browser.ts';
import { addVirtualAuthenticator } from './pages/passkeys.ts';
import { attachScreenshot } from './pages/screenshots.ts';
import { expectWithoutScrolling, seriousViolations, SIZES } from './pages/shell.ts';
import { expect, test, type Rover } from './fixtures/wheeled.ts';

async function signInWithFirstPasskey(page: Page, rover: Rover): Promise<void> {
  await addVirtualAuthenticator(page);
  await page.goto(`${rover.localUrl}/`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Rover' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

const mapLabel = (page: Page) => page.getByRole('img', { name: /^Map: base at/ }).getAttribute('aria-label');

test('a passkey signs in; holding the up key drives the base and the map moves, letting go stops it', async ({
  page,
  rover,
}, testInfo) => {
  await signInWithFirstPasskey(page, rover);
  await expect(page.getByText('Simulated base')).toBeVisible();
  // The browser holds a JWT, not a cookie credential for the API.
  const stored = await page.evaluate('sessionStorage.getItem("cockpit.wheeled.jwt")');
  expect(JSON.parse(String(stored))).toMatchObject({ token: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/) });

  const before = await mapLabel(page);
  expect(before).toBe('Map: base at x 0.00 m, y 0.00 m, heading 0°');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.down('ArrowUp');
  await expect(page.getByLabel('Speed', { exact: true })).toHaveText(/^0\.4\d m\/s$/);
  await expect
    .poll(async () => Number(/x (-?\d+\.\d+) m/.exec((await mapLabel(page)) ?? '')?.[1]), { timeout: 5000 })
    .toBeGreaterThan(0.3);
  await page.keyboard.up('ArrowUp');
  await expect(page.getByLabel('Speed', { exact: true })).toHaveText('0.00 m/s');
  await expect(page.getByLabel('Position y')).toHaveText('0.00 m');

  await page.keyboard.down('ArrowLeft');
  await expect
    .poll(async () => Number(/heading (-?\d+)°/.exec((await mapLabel(page)) ?? '')?.[1]), { timeout: 5000 })
    .toBeGreaterThan(20);
  await page.keyboard.up('ArrowLeft');
  const trail = page.locator('polyline');
  expect((await trail.getAttribute('points'))?.split(' ').length).toBeGreaterThan(5);
  await expect(page.getByRole('img', { name: "Live view from the base's camera" })).toBeVisible();
  await attachScreenshot(page, testInfo, 'wheeled-dashboard', 1280);
  await attachScreenshot(page, testInfo, 'wheeled-dashboard', 375);
});

test.describe('with a model', () => {
  test.use({ roverModel: true });

  test('the chat panel streams the reply of the model', async ({ page, rover }) => {
    await signInWithFirstPasskey(page, rover);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chat' }).click();
    await expect(page).toHaveURL(/#\/chat$/);
    await page.getByLabel('Message to the rover').fill('hello rover');
    await page.getByRole('button', { name: 'Send' }).click();
    const log = page.getByRole('list', { name: 'Conversation' });
    await expect(log.getByText('hello rover', { exact: true })).toBeVisible();
    await expect(log.getByText('You said: hello rover')).toBeVisible();
  });
});

test('the token console mints a service token the API accepts, and revokes it', async ({ page, rover }) => {
  await signInWithFirstPasskey(page, rover);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Subject').fill('thinker');
  await page.getByLabel('Name', { exact: true }).fill('night persona');
  await page.getByRole('button', { name: 'Mint token' }).click();
  const token = await page.getByLabel('New service token').inputValue();
  const state = await fetch(`${rover.url}/api/state`, { headers: { authorization: `Bearer ${token}` } });
  expect(state.status).toBe(200);
  await expect(page.getByText('night persona')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(/thinker · revoked/)).toBeVisible();
  expect((await fetch(`${rover.url}/api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
});

test('after a reload the passkey session cookie renews the JWT; signing out ends it', async ({ page, rover }) => {
  await signInWithFirstPasskey(page, rover);
  const first = JSON.parse(String(await page.evaluate('sessionStorage.getItem("cockpit.wheeled.jwt")'))) as {
    token: string;
  };
  // A new tab has no JWT: the cookie, sent only to /api/auth/*, gets a fresh one without a prompt.
  await page.evaluate('sessionStorage.clear()');
  await page.reload();
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
  const second = JSON.parse(String(await page.evaluate('sessionStorage.getItem("cockpit.wheeled.jwt")'))) as {
    token: string;
  };
  expect(second.token).not.toBe(first.token);
  // The page leaves the dashboard first, then ends the session: wait for the server's answer.
  const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('Signed out.')).toBeVisible();
  expect((await loggedOut).status()).toBe(200);
  for (const token of [first.token, second.token]) {
    expect((await fetch(`${rover.url}/api/state`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  }
});

for (const size of [...SIZES, { width: 320, height: 640 }]) {
  test(`every wheeled page passes axe and never scrolls sideways, with STOP in view, at ${size.width}×${size.height}`, async ({
    page,
    rover,
  }) => {
    await page.setViewportSize(size);
    await signInWithFirstPasskey(page, rover);
    const stop = page.getByRole('button', { name: 'STOP' });
    for (const tab of ['Drive', 'Chat', 'Settings']) {
      await page.getByRole('link', { name: tab, exact: true }).click();
      await expect(page.getByRole('link', { name: tab, exact: true })).toHaveAttribute('aria-current', 'page');
      await settleLayout(page);
      const where = `${tab} at ${size.width}×${size.height}`;
      expect(await horizontalOverflow(page), `sideways scroll on ${where}`).toBeLessThanOrEqual(0);
      await expectWithoutScrolling(page, stop, `STOP on ${where}`);
      expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
    }
  });
}
