/**
 * Small reads of browser state for specs. The e2e folder is type-checked without DOM types (it
 * runs in Node), so in-page code is passed as strings and its results are checked here.
 */
import type { Page } from '@playwright/test';

/** The owner token the dashboard keeps in localStorage for this origin, or null. */
export async function storedToken(page: Page, origin: string): Promise<string | null> {
  const state = await page.context().storageState();
  const entry = state.origins
    .find((o) => o.origin === origin)
    ?.localStorage.find((item) => item.name === 'cockpit.token');
  return entry?.value ?? null;
}

/** How many pixels the page is wider than its window: more than 0 means horizontal scrolling. */
export async function horizontalOverflow(page: Page): Promise<number> {
  const value: unknown = await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  if (typeof value !== 'number') throw new Error(`overflow check returned ${String(value)}`);
  return value;
}

/** Waits two animation frames, so layout and paint have caught up with a viewport change. */
export async function settleLayout(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}
