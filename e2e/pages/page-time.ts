/**
 * Page time under the test's control (Playwright's page.clock, installed before the page
 * loads): `stopPageTime` freezes it, after which the page's timers run only when the test moves
 * its clock (`page.clock.runFor`), however slow or busy the machine is.
 */
import type { Page } from '@playwright/test';

/** Freezes page time a moment after the page's own now (page.clock refuses a time in its past). */
export async function stopPageTime(page: Page): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const pageNow = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(pageNow + 1000);
      return;
    } catch (error) {
      // A machine slow enough for page time to run a second between the two calls: read again.
      if (attempt >= 3 || !String(error).includes('past')) throw error;
    }
  }
}
