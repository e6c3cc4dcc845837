import { describe, expect, it } from 'vitest';
import type { PlatformStatusView } from '../../../../server/contract/index.ts';
import {
  ago,
  channelProblem,
  endpointEnrolProblem,
  enrolProblem,
  haltedText,
  platformHeadline,
  sessionEnrolProblem,
  sessionTokenProblem,
} from './platform-format.ts';

const status: PlatformStatusView = {
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
  tokenNotice: null,
  ownerSession: null,
  firmware: {
    state: 'idle',
    channel: 'stable',
    currentVersion: null,
    available: null,
    staged: null,
    lastCheckedAt: null,
    message: null,
    installAllowed: false,
    installer: null,
  },
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
    expect(platformHeadline({ available: false, enrolled: false }).label).toBe('Not available');
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

  it('wants a URL, a session token and a name of at most 64 characters to enrol with a session', () => {
    const input = { platformUrl: 'http://127.0.0.1:4000', sessionToken: 's', name: 'Robot Cockpit' };
    expect(sessionEnrolProblem(input)).toBeNull();
    expect(sessionEnrolProblem({ ...input, sessionToken: '  ' })).toMatch(/session token/);
    expect(sessionEnrolProblem({ ...input, name: '' })).toMatch(/name/);
    expect(sessionEnrolProblem({ ...input, name: 'x'.repeat(65) })).toMatch(/at most 64/);
    expect(sessionEnrolProblem({ ...input, name: ` ${'x'.repeat(64)} ` })).toBeNull();
    expect(sessionEnrolProblem({ ...input, platformUrl: 'ftp://p.example' })).toMatch(/https/);
  });

  it('wants every endpoint field, a name of at most 64 characters and an https robot address', () => {
    const input = {
      platformUrl: 'http://127.0.0.1:4000',
      sessionToken: 's',
      name: 'Robot Cockpit',
      url: 'https://robot.example.com',
    };
    expect(endpointEnrolProblem(input)).toBeNull();
    expect(endpointEnrolProblem({ ...input, url: ' ' })).toMatch(/Fill in/);
    expect(endpointEnrolProblem({ ...input, sessionToken: '' })).toMatch(/Fill in/);
    expect(endpointEnrolProblem({ ...input, name: 'x'.repeat(65) })).toMatch(/at most 64/);
    expect(endpointEnrolProblem({ ...input, url: 'http://robot.example.com' })).toMatch(/https/);
    expect(endpointEnrolProblem({ ...input, platformUrl: 'p.example' })).toMatch(/https/);
  });

  it('wants a pasted owner session token within the route’s limit', () => {
    expect(sessionTokenProblem(' tok ')).toBeNull();
    expect(sessionTokenProblem('   ')).toMatch(/Paste/);
    expect(sessionTokenProblem('x'.repeat(513))).toMatch(/512/);
  });

  it('explains a halt with what to do', () => {
    expect(haltedText({ reason: 'token_rejected', since: 0, message: 'x' })).toMatch(/refusing .* enrol again/);
    expect(haltedText({ reason: 'token_rotated', since: 0, message: 'x' })).toMatch(/replaced .* adopt the new token/);
    expect(haltedText({ reason: 'device_removed', since: 0, message: 'x' })).toMatch(/removed .* enrol again/);
  });
});
