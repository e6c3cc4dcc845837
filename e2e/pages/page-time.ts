/**
 * Page time under the test's control (Playwright's page.clock, installed before the page
 * loads): `stopPageTime` freezes it, after which the page's timers run only when the test moves
 * its clock (`page.clock.runFor`), however slow or busy the machine is.
 */
import { expect, type Page } from '@playwright/test';

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

/**
 * Moves page time on a second at a time, the page given a moment of real time after each step,
 * until `done` holds. One jump over a whole backoff would also fire the timeouts of the requests
 * the page makes as it reconnects (8 s, renderer/src/lib/api/http-client.ts) while they are still
 * in flight, and so abort them.
 */
export async function stepPageTimeUntil(page: Page, done: () => Promise<boolean>, what: string): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await done()) return true;
        await page.clock.fastForward(1000);
        return done();
      },
      { message: what },
    )
    .toBe(true);
}
