import { describe, expect, it } from 'vitest';
import { createChallengeStore } from './challenges.ts';
import { createFakeClock } from './testing/fake-clock.ts';

type Payloads = { register: { label: string }; login: { rpId: string } };

describe('createChallengeStore', () => {
  it('returns a record once, for its own ceremony, before it expires', () => {
    const clock = createFakeClock();
    const store = createChallengeStore<Payloads>({ clock });
    const { challengeId, expiresAt } = store.put('register', 'chal', { label: 'x' });
    expect(expiresAt).toBe(clock.now() + 5 * 60_000);
    expect(store.take(challengeId, 'register')).toEqual({
      kind: 'register',
      challenge: 'chal',
      expiresAt,
      payload: { label: 'x' },
    });
    expect(store.take(challengeId, 'register')).toBeUndefined();
  });

  it('consumes a record presented to the wrong ceremony', () => {
    const store = createChallengeStore<Payloads>({ clock: createFakeClock() });
    const { challengeId } = store.put('login', 'chal', { rpId: 'r' });
    expect(store.take(challengeId, 'register')).toBeUndefined();
    expect(store.take(challengeId, 'login')).toBeUndefined();
  });

  it('refuses expired records and bounds the outstanding ones', () => {
    const clock = createFakeClock();
    const store = createChallengeStore<Payloads>({ clock, maxEntries: 3 });
    const old = store.put('login', 'a', { rpId: 'r' });
    clock.advance(5 * 60_000);
    expect(store.take(old.challengeId, 'login')).toBeUndefined();
    const ids = [1, 2, 3, 4].map((n) => store.put('login', `c${n}`, { rpId: 'r' }).challengeId);
    expect(store.size()).toBe(3);
    expect(store.take(ids[0] as string, 'login')).toBeUndefined();
    expect(store.take(ids[3] as string, 'login')?.challenge).toBe('c4');
    expect(store.take('', 'login')).toBeUndefined();
  });

  it('keeps the owner’s ceremony while one caller floods the store, and a crowd of callers too', () => {
    const clock = createFakeClock();
    const store = createChallengeStore<Payloads>({ clock, maxEntries: 100, maxPerClient: 4 });
    const owner = store.put('login', 'mine', { rpId: 'r' }, '192.168.1.10');
    for (let n = 0; n < 1000; n += 1) store.put('login', `flood${n}`, { rpId: 'r' }, '192.168.1.66');
    const flooder = [1, 2, 3, 4, 5].map((n) => store.put('login', `late${n}`, { rpId: 'r' }, '192.168.1.66'));
    // The flooder loses its own oldest: only its last four ceremonies are left.
    expect(store.take(flooder[0]!.challengeId, 'login')).toBeUndefined();
    expect(store.take(flooder[4]!.challengeId, 'login')?.challenge).toBe('late5');
    for (let n = 0; n < 1000; n += 1) store.put('login', `crowd${n}`, { rpId: 'r' }, `10.0.${n % 50}.1`);
    expect(store.size()).toBe(100);
    expect(store.take(owner.challengeId, 'login')?.challenge).toBe('mine');
  });
});
