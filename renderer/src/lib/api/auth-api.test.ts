import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import { watchAuthStatus } from './auth-api.ts';
import type { HttpClient } from './http-client.ts';

const STATUS = { who: null, hasCredentials: true } as unknown as AuthStatus;
const DROPPED: ApiResult<AuthStatus> = {
  ok: false,
  status: 0,
  code: 'NETWORK',
  message: 'The cockpit server cannot be reached.',
};

/** A client whose answers the test hands out one by one. */
function scripted(...answers: ApiResult<AuthStatus>[]): HttpClient & { asked: number } {
  const client = {
    asked: 0,
    request: async <T>() => {
      client.asked += 1;
      return answers.shift() as ApiResult<T>;
    },
  };
  return client;
}

afterEach(() => vi.useRealTimers());

describe('watchAuthStatus', () => {
  it('asks again, retryMs apart, until the cockpit answers, then stops', async () => {
    vi.useFakeTimers();
    const http = scripted(DROPPED, DROPPED, { ok: true, status: 200, data: STATUS });
    const seen: AuthStatus[] = [];
    watchAuthStatus(http, (s) => seen.push(s), 3000);
    await vi.advanceTimersByTimeAsync(0);
    expect([http.asked, seen.length]).toEqual([1, 0]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(http.asked).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(http.asked).toBe(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect([http.asked, seen]).toEqual([3, [STATUS]]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(http.asked).toBe(3);
  });

  it('asks no more once cancelled, and drops an answer that comes after', async () => {
    vi.useFakeTimers();
    const http = scripted(DROPPED, { ok: true, status: 200, data: STATUS });
    const seen: AuthStatus[] = [];
    const cancel = watchAuthStatus(http, (s) => seen.push(s), 3000);
    await vi.advanceTimersByTimeAsync(0);
    cancel();
    await vi.advanceTimersByTimeAsync(30_000);
    expect([http.asked, seen]).toEqual([1, []]);
  });
});
