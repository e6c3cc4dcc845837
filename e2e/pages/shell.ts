/**
 * The dashboard's pages for specs: open one by its address (as a bookmark would), read what is
 * on screen without scrolling, and run axe on it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** Every page of the tab bar: its address, its tab's name and something only that page shows. */
export const PAGES = [
  { hash: '#/cockpit', tab: 'Cockpit', marker: { role: 'region', name: 'Head' } },
  { hash: '#/agent', tab: 'Agent', marker: { role: 'region', name: 'Agent' } },
  { hash: '#/perception', tab: 'Perception', marker: { role: 'region', name: 'Perception' } },
  { hash: '#/moves', tab: 'Moves', marker: { role: 'region', name: 'Moves' } },
  { hash: '#/apps', tab: 'Apps', marker: { role: 'region', name: 'Robot check' } },
  { hash: '#/settings', tab: 'Settings', marker: { role: 'heading', name: 'Security and passkeys' } },
] as const;

/** The settings sections, each with a card only it shows. */
export const SETTINGS = [
  { hash: '#/settings/security', marker: 'Passkeys' },
  { hash: '#/settings/platform', marker: 'Platform' },
  { hash: '#/settings/notifications', marker: 'Notifications' },
  { hash: '#/settings/personas', marker: 'Personas' },
  { hash: '#/settings/diagnostics', marker: 'Diagnostics' },
  { hash: '#/settings/recordings', marker: 'Black box' },
  { hash: '#/settings/about', marker: 'Versions' },
] as const;

export const SIZES = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
  { width: 812, height: 375 },
] as const;

/** Opens the dashboard signed in, on the page of `hash` (the token is taken from the address). */
export async function openPage(page: Page, url: string, token: string | null, hash = ''): Promise<void> {
  await page.goto(token ? `${url}/?token=${encodeURIComponent(token)}${hash}` : `${url}/${hash}`);
  await expect(page.getByRole('group', { name: 'Connection' })).toContainText('Live');
}

/** A fresh cockpit opens its setup guide above the cockpit; an owner past the first run has closed it. */
export async function closeSetupGuide(page: Page): Promise<void> {
  const guide = page.getByRole('region', { name: 'Set up this robot' });
  await guide.getByRole('button', { name: 'Close the guide' }).click();
  await expect(guide).toHaveCount(0);
}

export function marker(page: Page, entry: (typeof PAGES)[number]): Locator {
  return page.getByRole(entry.marker.role, { name: entry.marker.name, exact: true });
}

/**
 * The box of `locator` lies wholly inside the window, seen without scrolling, and nothing
 * covers its centre (a press there reaches it).
 */
export async function expectWithoutScrolling(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) throw new Error(`${what} has no box on screen`);
  const inside =
    box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5;
  expect(inside, `${what} at ${JSON.stringify(box)} within ${size.width}×${size.height}`).toBe(true);
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // In-page code: e2e is type-checked without DOM types, so the page's document is typed here.
  const onTop = await locator.evaluate((el, p) => {
    const doc = (globalThis as unknown as { document: { elementFromPoint(x: number, y: number): unknown } }).document;
    return el.contains(doc.elementFromPoint(p.x, p.y) as typeof el);
  }, centre);
  expect(onTop, `${what}: nothing covers its centre`).toBe(true);
}

/** axe-core's WCAG A and AA rules on the page as it is: the serious and critical findings. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
