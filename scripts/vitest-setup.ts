/**
 * Tests fail loudly: an unexpected console.error or console.warn fails the test that caused it
 * (docs/architecture.md, "House style"). A test that expects one spies on console itself.
 */
import { afterEach, beforeEach, vi } from 'vitest';

let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  for (const method of ['error', 'warn'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      unexpected.push(`console.${method}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (unexpected.length > 0) throw new Error(`unexpected console output:\n${unexpected.join('\n')}`);
});
