import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BUSY_RETRY_MS,
  createWindowSession,
  renewalStep,
  sessionCookie,
  type WindowSessionDeps,
} from './window-session.ts';

const HOUR = 3_600_000;
const TTL = 24 * HOUR;

describe('renewalStep', () => {
  const expiresAt = TTL;

  it('waits until three quarters of the lifetime', () => {
    expect(renewalStep(0, expiresAt, TTL, false)).toEqual({ renew: false, waitMs: 18 * HOUR });
  });

  it('renews from then on when the window is not in use', () => {
    expect(renewalStep(18 * HOUR, expiresAt, TTL, false)).toEqual({ renew: true });
  });

  it('looks again later while the window is in use', () => {
    expect(renewalStep(18 * HOUR, expiresAt, TTL, true)).toEqual({ renew: false, waitMs: BUSY_RETRY_MS });
  });

  it('renews regardless in the last twentieth of the lifetime', () => {
    const hard = expiresAt - TTL / 20;
    expect(renewalStep(hard - 60_000, expiresAt, TTL, true)).toEqual({ renew: false, waitMs: 60_000 });
    expect(renewalStep(hard, expiresAt, TTL, true)).toEqual({ renew: true });
    expect(renewalStep(expiresAt + 1, expiresAt, TTL, true)).toEqual({ renew: true });
  });

  it('keeps at least a minute of margin for short sessions', () => {
    expect(renewalStep(60_000, 120_000, 120_000, true)).toEqual({ renew: true });
  });
});

describe('createWindowSession', () => {
  let log: string[];
  let busy: boolean;
  let failCreate: boolean;

  beforeEach(() => {
    // Fake timers move Date.now too, so the keeper's clock and its timers never disagree.
    vi.useFakeTimers();
    vi.setSystemTime(0);
    log = [];
    busy = false;
    failCreate = false;
  });
  afterEach(() => vi.useRealTimers());

  function keeper(overrides: Partial<WindowSessionDeps> = {}) {
    let n = 0;
    return createWindowSession({
      ttlSeconds: TTL / 1000,
      create: async (ttl) => {
        if (failCreate) throw new Error('disk full');
        n += 1;
        log.push(`create s${n} ${ttl}`);
        return { id: `s${n}`, expiresAt: Date.now() + ttl * 1000 };
      },
      install: async (s) => void log.push(`cookie ${s.id}`),
      reload: async () => void log.push('reload'),
      destroy: async (id) => void log.push(`destroy ${id}`),
      windowBusy: () => busy,
      onError: (e) => log.push(`error ${(e as Error).message}`),
      ...overrides,
    });
  }

  const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it('installs a session cookie at start and ends the session at stop', async () => {
    const session = keeper();
    await session.start();
    expect(log).toEqual(['create s1 86400', 'cookie s1']);
    await session.stop();
    expect(log).toEqual(['create s1 86400', 'cookie s1', 'destroy s1']);
  });

  it('renews at three quarters of the lifetime: new cookie, reload, then the old session ends', async () => {
    const session = keeper();
    await session.start();
    await advance(18 * HOUR - 1);
    expect(log).toHaveLength(2);
    await advance(1);
    expect(log.slice(2)).toEqual(['create s2 86400', 'cookie s2', 'reload', 'destroy s1']);
    await session.stop();
    expect(log.at(-1)).toBe('destroy s2');
  });

  it('waits for the window to be left alone, but not past the hard limit', async () => {
    busy = true;
    const session = keeper();
    await session.start();
    await advance(18 * HOUR + 2 * BUSY_RETRY_MS);
    expect(log).toHaveLength(2);
    busy = false;
    await advance(BUSY_RETRY_MS);
    expect(log).toContain('reload');
    await session.stop();

    log = [];
    vi.setSystemTime(0);
    busy = true;
    const always = keeper();
    await always.start();
    await advance(TTL - TTL / 20);
    expect(log).toContain('reload');
    await always.stop();
  });

  it('retries a failed renewal a minute later, keeping the current session', async () => {
    const session = keeper({ retryMs: 60_000 });
    await session.start();
    failCreate = true;
    await advance(18 * HOUR);
    expect(log.at(-1)).toBe('error disk full');
    failCreate = false;
    await advance(60_000);
    expect(log.slice(-4)).toEqual(['create s2 86400', 'cookie s2', 'reload', 'destroy s1']);
    await session.stop();
  });

  it('ends a session created while the app was quitting', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const session = keeper({
      create: async () => {
        calls += 1;
        if (calls === 2) await gate;
        log.push(`create s${calls}`);
        return { id: `s${calls}`, expiresAt: Date.now() + TTL };
      },
    });
    await session.start();
    await advance(18 * HOUR);
    await session.stop();
    release();
    await vi.runAllTimersAsync();
    expect(log).toEqual(['create s1', 'cookie s1', 'destroy s1', 'create s2', 'cookie s2', 'destroy s2']);
  });
});

it('sets the session as an HttpOnly, lax, browser-session cookie of the dashboard origin', () => {
  expect(sessionCookie('http://localhost:8097', { id: 'abc', expiresAt: 1 })).toEqual({
    url: 'http://localhost:8097',
    name: 'cockpit_session',
    value: 'abc',
    httpOnly: true,
    sameSite: 'lax',
  });
});
