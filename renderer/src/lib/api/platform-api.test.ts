import { describe, expect, it } from 'vitest';
import { readNotice, readPlatformStatus } from './platform-api.ts';

const documented = {
  available: true,
  enrolled: true,
  identitySource: 'stored',
  platformUrl: 'https://platform.example',
  deviceId: '3f2c9a1e',
  connected: true,
  online: true,
  lastHeartbeatAt: 1767225600000,
  envelopesHandled: 3,
  lastError: null,
  unread: 0,
  halted: null,
  firmware: {
    state: 'disabled',
    channel: 'stable',
    currentVersion: null,
    available: null,
    staged: null,
    lastCheckedAt: null,
    message: null,
  },
};

describe('readPlatformStatus', () => {
  it('reads the documented status', () => {
    expect(readPlatformStatus(documented)).toEqual(documented);
  });

  it('reads a frame (no `available` flag) as available, and the cockpit without a client as not', () => {
    const { available: _available, ...frame } = documented;
    expect(readPlatformStatus({ type: 'platform', ...frame })?.available).toBe(true);
    expect(readPlatformStatus({ enrolled: false, available: false })).toMatchObject({
      available: false,
      enrolled: false,
      firmware: null,
    });
  });

  it('keeps errors and halts, and refuses what is not a status', () => {
    const status = readPlatformStatus({
      ...documented,
      lastError: { kind: 'transport', message: 'no route', at: 5 },
      halted: { reason: 'token_rejected', since: 6, message: 'the platform refused the token' },
    });
    expect(status?.lastError).toEqual({ kind: 'transport', message: 'no route', at: 5 });
    expect(status?.halted?.reason).toBe('token_rejected');
    expect(readPlatformStatus({ online: true })).toBeNull();
  });
});

describe('readNotice', () => {
  it('needs a title and defaults the rest', () => {
    expect(readNotice({ type: 'notify', title: 'Hello' })).toEqual({ title: 'Hello', body: '', tag: '', url: '' });
    expect(readNotice({ title: '' })).toBeNull();
  });
});
