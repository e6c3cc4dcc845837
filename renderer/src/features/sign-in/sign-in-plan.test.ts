import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../../server/contract/index.ts';
import { isIpHostname, signInPlan, type PlanInput } from './sign-in-plan.ts';

const status = (patch: Partial<AuthStatus> = {}): AuthStatus => ({
  who: 'anonymous',
  owner: false,
  passkeys: 1,
  hasCredentials: true,
  firstUseOpen: false,
  registrationOpen: false,
  enrolTokenConfigured: false,
  sessionExpiresAt: null,
  secure: true,
  ipHost: false,
  ...patch,
});

const input = (patch: Partial<PlanInput> = {}): PlanInput => ({
  status: status(),
  hostname: 'robot.local',
  secureContext: true,
  webAuthn: true,
  pairCode: null,
  ...patch,
});

describe('signInPlan', () => {
  it('offers passkey sign-in once a passkey exists', () => {
    expect(signInPlan(input())).toEqual({ block: null, enrol: null, signIn: true, enrolWithToken: false });
  });

  it('offers the first passkey while none exists', () => {
    const plan = signInPlan(input({ status: status({ passkeys: 0, hasCredentials: false, firstUseOpen: true }) }));
    expect(plan).toEqual({ block: null, enrol: 'first-use', signIn: false, enrolWithToken: false });
  });

  it('offers the enrolment-token form only when the cockpit has a token', () => {
    expect(signInPlan(input({ status: status({ enrolTokenConfigured: true }) })).enrolWithToken).toBe(true);
  });

  it('puts a pairing link first, with sign-in still there', () => {
    expect(signInPlan(input({ pairCode: 'abc' }))).toEqual({ block: null, enrol: 'pairing', signIn: true, enrolWithToken: false });
  });

  it('explains a raw IP address before anything else', () => {
    expect(signInPlan(input({ status: status({ ipHost: true }), pairCode: 'abc' }))).toEqual({
      block: 'ip-host',
      enrol: null,
      signIn: false,
      enrolWithToken: false,
    });
    expect(signInPlan(input({ status: null, hostname: '192.168.1.20' })).block).toBe('ip-host');
  });

  it('explains plain http on a LAN name, and a browser without WebAuthn', () => {
    expect(signInPlan(input({ secureContext: false })).block).toBe('insecure');
    expect(signInPlan(input({ webAuthn: false })).block).toBe('unsupported');
  });

  it('offers only the token when the cockpit did not answer', () => {
    expect(signInPlan(input({ status: null }))).toEqual({ block: null, enrol: null, signIn: false, enrolWithToken: false });
  });
});

describe('isIpHostname', () => {
  it.each([
    ['192.168.1.20', true],
    ['[::1]', true],
    ['fe80::1', true],
    ['localhost', false],
    ['reachy.local', false],
    ['10.0.0.1.example', false],
  ])('%s → %s', (host, ip) => {
    expect(isIpHostname(host)).toBe(ip);
  });
});
