import { describe, expect, it } from 'vitest';
import type { EventFrame } from '../../../../server/contract/index.ts';
import { credentialLabel, mergeReceipts, receiptTime } from './receipts-feed.ts';

const receipt = (id: number, text = `event ${id}`): EventFrame => ({
  type: 'event',
  id,
  time: '2026-11-21T06:01:02.000Z',
  action: 'look',
  text,
  credential: 'token',
});

describe('mergeReceipts', () => {
  it('keeps the newest first and each id once', () => {
    const feed = mergeReceipts([], [receipt(1), receipt(2)]);
    expect(feed.map((e) => e.id)).toEqual([2, 1]);
    expect(mergeReceipts(feed, [receipt(3), receipt(2, 'again')]).map((e) => e.id)).toEqual([3, 2, 1]);
  });

  it('drops the oldest past the limit', () => {
    expect(mergeReceipts([receipt(1), receipt(2)], [receipt(3)], 2).map((e) => e.id)).toEqual([3, 2]);
  });
});

describe('credentialLabel', () => {
  it('names each kind of credential', () => {
    expect(credentialLabel('passkey')).toBe('passkey');
    expect(credentialLabel('token')).toBe('owner token');
    expect(credentialLabel('system')).toBe('cockpit');
    expect(credentialLabel('future-kind')).toBe('future-kind');
  });
});

describe('receiptTime', () => {
  it('shows the local time with seconds, and dashes for nonsense', () => {
    expect(receiptTime('2026-11-21T06:01:02.000Z')).toMatch(/^\d\d:\d\d:02$/);
    expect(receiptTime('not a time')).toBe('--:--:--');
  });
});
