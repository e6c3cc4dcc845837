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

/**
 * Controls smaller than a finger (44 × 44 CSS px) among the visible ones, named for the report.
 * A checkbox counts by its label (the label is what a finger presses); links inside a sentence
 * are exempt, as WCAG 2.5.8 exempts inline targets.
 */
export async function smallTouchTargets(page: Page): Promise<string[]> {
  const value: unknown = await page.evaluate(`(() => {
    const small = [];
    for (const el of document.querySelectorAll('button, a[href], input, select, textarea, summary, [role="switch"]')) {
      if (el.closest('p, li span')) continue;
      const target = el.matches('input[type="checkbox"], input[type="radio"]') ? (el.closest('label') ?? el) : el;
      const box = target.getBoundingClientRect();
      const style = getComputedStyle(target);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (box.width < 43.5 || box.height < 43.5) {
        const name = el.getAttribute('aria-label') || el.textContent.trim() || el.id || el.tagName;
        small.push(name + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
      }
    }
    return small;
  })()`);
  if (!Array.isArray(value)) throw new Error('touch target check returned no list');
  return value as string[];
}

/**
 * Visible checkboxes drawn wider or taller than a box (over 32 CSS px), named by their label: a
 * text field's styles stretching a box across its row.
 */
export async function stretchedCheckboxes(page: Page): Promise<string[]> {
  const value: unknown = await page.evaluate(`(() => {
    const stretched = [];
    for (const el of document.querySelectorAll('input[type="checkbox"]')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (box.width > 32 || box.height > 32) {
        const name = (el.closest('label')?.textContent ?? el.getAttribute('aria-label') ?? el.id).trim();
        stretched.push(name + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
      }
    }
    return stretched;
  })()`);
  if (!Array.isArray(value)) throw new Error('checkbox check returned no list');
  return value as string[];
}
