import { describe, expect, it } from 'vitest';
import { deviceLine, testNote } from './notifications-format.ts';

describe('notifications card words', () => {
  it('says whether this browser and others get notices', () => {
    expect(deviceLine(true, 1)).toMatch(/^This browser gets/);
    expect(deviceLine(false, 0)).toBe('Off on this browser. No browser gets them yet.');
    expect(deviceLine(false, 2)).toBe('Off on this browser. 2 browsers get them.');
  });

  it('reports what a test push did', () => {
    expect(testNote({ sent: 0, pruned: 0, failed: 0 })).toBe('No browser is subscribed: nothing was sent.');
    expect(testNote({ sent: 1, pruned: 0, failed: 0 })).toBe('Sent to 1 browser.');
    expect(testNote({ sent: 2, pruned: 1, failed: 1 })).toBe(
      'Sent to 2 browsers. 1 subscription had expired and was removed. 1 could not be reached.',
    );
  });
});
