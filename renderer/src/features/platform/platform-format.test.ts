import { describe, expect, it } from 'vitest';
import type { PlatformStatus } from '../../lib/api/platform-api.ts';
import { ago, channelProblem, enrolProblem, firmwareLine, haltedText, platformHeadline } from './platform-format.ts';

const status: PlatformStatus = {
  available: true,
  enrolled: true,
  identitySource: 'stored',
  platformUrl: 'https://platform.example',
  deviceId: 'dev-1',
  connected: true,
  online: true,
  lastHeartbeatAt: 1000,
  envelopesHandled: 0,
  lastError: null,
  unread: 0,
  halted: null,
  firmware: null,
};

describe('platformHeadline', () => {
  it('names the state of the link', () => {
    expect(platformHeadline(status)).toEqual({ tone: 'ok', label: 'Online' });
    expect(platformHeadline({ ...status, online: false }).label).toBe('Offline');
    expect(platformHeadline({ ...status, connected: false }).label).toBe('Disconnected');
    expect(platformHeadline({ ...status, halted: { reason: 'token_rejected', since: 1, message: 'm' } }).tone).toBe(
      'bad',
    );
    expect(platformHeadline({ ...status, enrolled: false }).label).toBe('Not enrolled');
    expect(platformHeadline({ ...status, available: false }).label).toBe('Not available');
    expect(platformHeadline(null).label).toBe('');
  });
});

describe('ago', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(ago(null, 0)).toBe('never');
    expect(ago(10_000, 22_000)).toBe('12 s ago');
    expect(ago(0, 180_000)).toBe('3 min ago');
    expect(ago(0, 2 * 3_600_000)).toBe('2 h ago');
    expect(ago(0, 4 * 86_400_000)).toBe('4 d ago');
    expect(ago(5000, 1000)).toBe('0 s ago');
  });
});

describe('firmwareLine', () => {
  it('says the state, the running version and what is new', () => {
    const f = {
      state: 'idle',
      channel: 'stable',
      currentVersion: '1.2.3',
      available: '1.2.4',
      staged: null,
      lastCheckedAt: null,
      message: null,
    };
    expect(firmwareLine(f)).toBe('idle · running 1.2.3 · 1.2.4 available');
    expect(firmwareLine({ ...f, available: '1.2.3', staged: '1.2.4' })).toBe('idle · running 1.2.3 · 1.2.4 staged');
    expect(firmwareLine(null)).toBe('—');
  });
});

describe('form checks', () => {
  it('checks the channel like the cockpit', () => {
    expect(channelProblem('beta_2')).toBeNull();
    expect(channelProblem('Beta')).not.toBeNull();
    expect(channelProblem('')).not.toBeNull();
  });

  it('wants every enrolment field and an http(s) URL', () => {
    const input = { platformUrl: 'https://p.example', deviceId: 'd', token: 't' };
    expect(enrolProblem(input)).toBeNull();
    expect(enrolProblem({ ...input, token: ' ' })).toMatch(/Fill in/);
    expect(enrolProblem({ ...input, platformUrl: 'p.example' })).toMatch(/https/);
  });

  it('explains a halt with what to do', () => {
    expect(haltedText({ reason: 'token_rejected', since: 0, message: 'x' })).toMatch(/refusing .* enrol again/);
  });
});
