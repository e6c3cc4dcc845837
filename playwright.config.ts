/**
 * End-to-end tests: the built dashboard (dist/renderer, `npm run test:e2e` builds it first) served
 * by the real headless cockpit, in the system Chromium. Each test starts its own cockpit on port 0
 * with a fresh data folder (e2e/fixtures/cockpit.ts), so tests share nothing.
 */
import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  // A wait's bound only detects a broken test: the same floor as the unit tests' waits
  // (TEST_WAIT_MS in server/testing/eventually.ts), under the 60 s test timeout.
  expect: { timeout: 15_000 },
  reporter: 'list',
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      // The system Chromium, never a downloaded one (no `npx playwright install` here).
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
