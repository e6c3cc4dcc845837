import { describe, expect, it } from 'vitest';
import { eventually, holdsEventually } from './eventually.ts';

describe('eventually', () => {
  it('resolves with the first truthy value, checking again until then', async () => {
    let calls = 0;
    const value = await eventually(() => ((calls += 1) >= 3 ? `after ${calls}` : undefined), { intervalMs: 1 });
    expect(value).toBe('after 3');
  });

  it('treats a throwing check as not yet, and reports its last error when the bound passes', async () => {
    let calls = 0;
    await expect(
      eventually(
        () => {
          calls += 1;
          throw new Error(`not yet ${calls}`);
        },
        { what: 'the door', timeoutMs: 0 },
      ),
    ).rejects.toThrow(/^the door did not hold within 0 ms \(last check: not yet 1\)$/);
  });

  it('holdsEventually answers instead of throwing', async () => {
    expect(await holdsEventually(() => true)).toBe(true);
    expect(await holdsEventually(() => false, { timeoutMs: 0 })).toBe(false);
  });
});
