import { describe, expect, it } from 'vitest';
import { WHEELED_PAGES, wheeledPageOfHash } from './wheeled-routes.ts';

describe('wheeledPageOfHash', () => {
  it('reads each page back from its link, and anything else as Drive', () => {
    for (const page of WHEELED_PAGES) expect(wheeledPageOfHash(page.href)).toBe(page.id);
    for (const hash of ['', '#', '#/', '#/cockpit', '#token=x']) expect(wheeledPageOfHash(hash)).toBe('drive');
  });
});
