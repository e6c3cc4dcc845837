import { describe, expect, it } from 'vitest';
import { capabilitiesFrom, UNKNOWN_CAPABILITIES } from '../daemon/capabilities.ts';
import type { AppLockStatus } from '../daemon/wire.ts';
import { AppError } from '../errors.ts';
import { APP_LOCK_ROUTE, createAppLockGuard } from './app-lock.ts';

function guard(answer: AppLockStatus | AppError, caps = UNKNOWN_CAPABILITIES) {
  let reads = 0;
  const daemon = {
    appLockStatus: async () => {
      reads += 1;
      if (answer instanceof AppError) throw answer;
      return answer;
    },
  };
  return { g: createAppLockGuard({ daemon, capabilities: () => caps }), reads: () => reads };
}

describe('robot app lock guard', () => {
  it('lets motion through while the slot is free', async () => {
    const { g, reads } = guard({ state: 'free', holder_name: null });
    await expect(g.assertFree()).resolves.toBeUndefined();
    expect(reads()).toBe(1);
    expect(g.last()).toEqual({ state: 'free', holder_name: null });
  });

  it('refuses with 409 ROBOT_APP_LOCKED naming a local app', async () => {
    const { g } = guard({ state: 'local_app', holder_name: 'hello_world' });
    const err = (await g.assertFree().catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(409);
    expect(err.code).toBe('ROBOT_APP_LOCKED');
    expect(err.message).toMatch(/the app "hello_world"/);
    expect(err.extra).toEqual({ holder: { kind: 'local_app', name: 'hello_world' } });
  });

  it('refuses a remote session too', async () => {
    const { g } = guard({ state: 'remote_session', holder_name: 'remote' });
    await expect(g.assertFree()).rejects.toMatchObject({
      code: 'ROBOT_APP_LOCKED',
      message: expect.stringMatching(/a remote session;/),
      extra: { holder: { kind: 'remote_session', name: 'remote' } },
    });
  });

  it('does not ask a daemon whose route list lacks the lock (older than 1.13)', async () => {
    const { g, reads } = guard({ state: 'local_app', holder_name: 'x' }, capabilitiesFrom('1.10.0', { paths: {} }));
    await expect(g.assertFree()).resolves.toBeUndefined();
    expect(reads()).toBe(0);
    const listed = guard({ state: 'local_app', holder_name: 'x' }, capabilitiesFrom('1.13.0', { paths: { [APP_LOCK_ROUTE]: { get: {} } } }));
    await expect(listed.g.assertFree()).rejects.toMatchObject({ code: 'ROBOT_APP_LOCKED' });
  });

  it('a refused read counts as free; a daemon that is down fails the motion at once', async () => {
    await expect(guard(new AppError('DAEMON_ERROR', 'daemon refused app lock (404)')).g.assertFree()).resolves.toBeUndefined();
    await expect(guard(new AppError('DAEMON_TIMEOUT', 'no answer')).g.assertFree()).rejects.toMatchObject({
      code: 'DAEMON_TIMEOUT',
    });
  });
});
