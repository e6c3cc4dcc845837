import { describe, expect, it } from 'vitest';
import {
  navigationDecision,
  newWindowDecision,
  pairingPageUrl,
  permissionAllowed,
  windowOrigin,
} from './navigation.ts';

const LOCAL = 'http://localhost:8097';

describe('windowOrigin', () => {
  it.each([
    ['0.0.0.0', 'http://localhost:8097'],
    ['::', 'http://localhost:8097'],
    ['127.0.0.1', 'http://localhost:8097'],
    ['::1', 'http://localhost:8097'],
    ['192.168.1.20', 'http://192.168.1.20:8097'],
    ['fd00::5', 'http://[fd00::5]:8097'],
  ])('host %s gives %s', (host, origin) => {
    expect(windowOrigin(host, 8097)).toBe(origin);
  });
});

describe('navigationDecision', () => {
  it.each([
    [`${LOCAL}/`, 'stay'],
    [`${LOCAL}/#security`, 'stay'],
    [`${LOCAL}/trust`, 'stay'],
    ['http://127.0.0.1:8097/', 'external'],
    ['http://localhost:9999/', 'external'],
    ['https://example.org/docs', 'external'],
    ['https://user:secret@example.org/', 'deny'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['smb://share/x', 'deny'],
    ['not a url', 'deny'],
  ])('%s → %s', (target, decision) => {
    expect(navigationDecision(target, LOCAL)).toBe(decision);
  });
});

describe('newWindowDecision', () => {
  it.each([
    [`${LOCAL}/ca.crt`, 'external'],
    ['https://example.org/', 'external'],
    ['mailto:someone@example.org', 'deny'],
    ['file:///tmp/x', 'deny'],
    ['', 'deny'],
  ])('%s → %s', (target, decision) => {
    expect(newWindowDecision(target)).toBe(decision);
  });
});

it('points the pairing item at the security page of the dashboard', () => {
  expect(pairingPageUrl(LOCAL)).toBe('http://localhost:8097/#/settings/security');
});

describe('permissionAllowed', () => {
  it.each([
    ['fullscreen', LOCAL, undefined, true],
    ['clipboard-sanitized-write', `${LOCAL}/#security`, undefined, true],
    ['media', LOCAL, ['audio'], true],
    ['media', LOCAL, ['audio', 'video'], false],
    ['media', LOCAL, [], false],
    ['geolocation', LOCAL, undefined, false],
    ['notifications', LOCAL, undefined, false],
    ['fullscreen', 'https://example.org/', undefined, false],
    ['fullscreen', 'http://127.0.0.1:8097/', undefined, false],
  ])('%s from %s (%j) → %s', (permission, requestingUrl, mediaTypes, allowed) => {
    expect(permissionAllowed({ permission, requestingUrl, ...(mediaTypes ? { mediaTypes } : {}) }, LOCAL)).toBe(
      allowed,
    );
  });
});
