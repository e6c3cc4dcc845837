/** Screenshots kept as artifacts (docs/testing.md, "Rules"): sized like a phone or a laptop, checked for sideways scroll. */
import { expect, type Page, type TestInfo } from '@playwright/test';
import { horizontalOverflow, settleLayout } from './browser.ts';

export async function attachScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  width: number,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
  await settleLayout(page);
  expect(await horizontalOverflow(page), `horizontal scroll at ${width} px`).toBeLessThanOrEqual(0);
  const file = testInfo.outputPath(`${name}-${width}px.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  await testInfo.attach(`${name}-${width}px`, { path: file, contentType: 'image/png' });
}
