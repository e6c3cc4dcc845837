import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { createSessionStore } from './sessions.ts';
import type { SessionEndReason, SessionStore } from './sessions.ts';
import { createFakeClock } from './testing/fake-clock.ts';
import type { FakeClock } from './testing/fake-clock.ts';
import { eventually } from '../testing/eventually.ts';

let dir: string;
let cleanup: () => Promise<void>;
let clock: FakeClock;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  clock = createFakeClock();
});
afterEach(() => cleanup());

const open = (maxSessions?: number): Promise<SessionStore> =>
  createSessionStore({ dataDir: dir, clock, log: recordingLog().log, ...(maxSessions ? { maxSessions } : {}) });

function ends(store: SessionStore): Array<[string, SessionEndReason]> {
  const seen: Array<[string, SessionEndReason]> = [];
  store.onEnd((key, reason) => seen.push([key, reason]));
  return seen;
}

describe('createSessionStore', () => {
  it('creates sessions with random ids, stores only their digest (0600) and survives a restart', async () => {
    const store = await open();
    const created = await store.create({ credentialId: 'cred-1', ttlSeconds: 60 });
    expect(created.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.expiresAt).toBe(clock.now() + 60_000);
    const text = await readFile(join(dir, 'sessions.json'), 'utf8');
    expect(text).not.toContain(created.id);
    expect(text).toContain(created.key);
    expect((await stat(join(dir, 'sessions.json'))).mode & 0o777).toBe(0o600);
    const restarted = await open();
    expect(restarted.validate(created.id)).toEqual({
      key: created.key,
      credentialId: 'cred-1',
      createdAt: clock.now(),
      expiresAt: created.expiresAt,
    });
    expect(restarted.validate(created.key)).toBeUndefined();
    expect(restarted.validate('')).toBeUndefined();
  });

  it('says by key whether a session lives: not after logout (also after a restart) or expiry', async () => {
    const store = await open();
    const a = await store.create({ credentialId: 'c', ttlSeconds: 60 });
    const b = await store.create({ credentialId: 'c', ttlSeconds: 120 });
    expect(store.isLive(a.key)).toBe(true);
    expect(store.isLive(a.id)).toBe(false);
    await store.destroy(a.id);
    expect((await open()).isLive(a.key)).toBe(false);
    clock.advance(120_000);
    expect(store.isLive(b.key)).toBe(false);
  });

  it('refuses and removes an expired session, telling listeners', async () => {
    const store = await open();
    const seen = ends(store);
    const { id, key } = await store.create({ credentialId: 'c', ttlSeconds: 60 });
    clock.advance(60_000);
    expect(store.validate(id)).toBeUndefined();
    await eventually(
      async () =>
        (JSON.parse(await readFile(join(dir, 'sessions.json'), 'utf8')) as { sessions: unknown[] }).sessions.length ===
        0,
      {
        what: 'the expired session removed from the file',
      },
    );
    expect(seen).toEqual([[key, 'expired']]);
    expect((await open()).validate(id)).toBeUndefined();
  });

  it('ends one session at logout and all of a credential’s sessions at revocation', async () => {
    const store = await open();
    const seen = ends(store);
    const a = await store.create({ credentialId: 'phone', ttlSeconds: 60 });
    const b = await store.create({ credentialId: 'phone', ttlSeconds: 60 });
    const c = await store.create({ credentialId: 'laptop', ttlSeconds: 60 });
    expect(await store.destroy(a.id)).toBe(true);
    expect(await store.destroy(a.id)).toBe(false);
    expect(await store.destroyByCredential('phone')).toBe(1);
    expect(store.validate(b.id)).toBeUndefined();
    expect(store.validate(c.id)).toBeDefined();
    expect(seen).toEqual([
      [a.key, 'logout'],
      [b.key, 'revoked'],
    ]);
    expect((await open()).validate(b.id)).toBeUndefined();
  });

  it('prunes expired sessions and evicts the oldest beyond the cap', async () => {
    const store = await open(3);
    const seen = ends(store);
    const first = await store.create({ credentialId: 'c', ttlSeconds: 10 });
    clock.advance(1);
    const kept = await Promise.all([1, 2, 3].map(() => store.create({ credentialId: 'c', ttlSeconds: 100 })));
    expect(seen).toEqual([[first.key, 'evicted']]);
    expect(kept.every((k) => store.validate(k.id))).toBe(true);
    clock.advance(100_000);
    expect(await store.pruneExpired()).toBe(3);
  });

  it('stops telling a listener once it unsubscribes, and refuses a bad ttl', async () => {
    const store = await open();
    const seen: string[] = [];
    const off = store.onEnd((key) => seen.push(key));
    off();
    const { id } = await store.create({ credentialId: 'c', ttlSeconds: 5 });
    await store.destroy(id);
    expect(seen).toEqual([]);
    await expect(store.create({ credentialId: 'c', ttlSeconds: 0 })).rejects.toThrow(RangeError);
  });
});
