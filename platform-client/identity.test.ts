import { describe, expect, it } from 'vitest';
import { checkEnrolInput, createIdentityStore, IDENTITY_SECRET } from './identity.ts';
import { createMemorySecretStore } from './secret-store.ts';
import type { PlatformLog } from './types.ts';

const TOKEN = 'tind_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

function quietLog(): PlatformLog & { errors: string[] } {
  const errors: string[] = [];
  return { errors, debug() {}, info() {}, warn() {}, error: (msg) => void errors.push(msg) };
}

describe('checkEnrolInput', () => {
  it('accepts a pasted https URL, id and token, trimmed', () => {
    const out = checkEnrolInput({
      platformUrl: 'https://tiny.technology/',
      deviceId: ' 1b2c-33 ',
      token: ` ${TOKEN}\n`,
    });
    expect(out).toEqual({
      ok: true,
      value: { platformUrl: 'https://tiny.technology', deviceId: '1b2c-33', token: TOKEN },
    });
  });

  it('refuses http to a public host, a blank id and a short token', () => {
    expect(checkEnrolInput({ platformUrl: 'http://tiny.technology', deviceId: 'a', token: TOKEN })).toMatchObject({
      ok: false,
    });
    expect(checkEnrolInput({ platformUrl: 'https://tiny.technology', deviceId: '', token: TOKEN })).toMatchObject({
      ok: false,
    });
    expect(checkEnrolInput({ platformUrl: 'https://tiny.technology', deviceId: 'a', token: 'short' })).toMatchObject({
      ok: false,
    });
    expect(checkEnrolInput(null)).toMatchObject({ ok: false });
  });

  it('never echoes the token in a refusal', () => {
    const out = checkEnrolInput({ platformUrl: 'ftp://x', deviceId: 'a', token: TOKEN });
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });
});

describe('createIdentityStore', () => {
  it('saves, loads and forgets', async () => {
    const secrets = createMemorySecretStore();
    const store = createIdentityStore(secrets, quietLog());
    expect(await store.load()).toEqual({ ok: true, value: null });
    const identity = { platformUrl: 'https://tiny.technology', deviceId: 'dev-1', token: TOKEN };
    await store.save(identity);
    expect(await store.load()).toEqual({ ok: true, value: identity });
    await store.forget();
    expect(await secrets.get(IDENTITY_SECRET)).toBeNull();
  });

  it('sets a corrupt record aside and reports it', async () => {
    const secrets = createMemorySecretStore();
    await secrets.set(IDENTITY_SECRET, '{"platformUrl": 3');
    const log = quietLog();
    const out = await createIdentityStore(secrets, log).load();
    expect(out).toMatchObject({ ok: false, failure: { kind: 'bad_request' } });
    expect(log.errors).toHaveLength(1);
    expect(await secrets.get(IDENTITY_SECRET)).toBeNull();
    expect(await secrets.get(`${IDENTITY_SECRET}-corrupt`)).toBe('{"platformUrl": 3');
  });
});
