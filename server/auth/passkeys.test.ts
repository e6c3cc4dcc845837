import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { eventually } from '../testing/eventually.ts';
import { CHALLENGE_TTL_MS } from './challenges.ts';
import { SESSIONS_FILE } from './sessions.ts';
import {
  ORIGIN,
  RP_ID,
  TTL_SECONDS,
  credentialsFile,
  enrol,
  expectRefusedUnchanged,
  openHarness,
  signIn,
} from './testing/passkey-harness.ts';
import type { Harness } from './testing/passkey-harness.ts';
import { createSoftAuthenticator } from './testing/soft-authenticator.ts';
import type { SoftAuthenticator } from './testing/soft-authenticator.ts';

let dir: string;
let cleanup: () => Promise<void>;
let h: Harness;
let phone: SoftAuthenticator;
let laptop: SoftAuthenticator;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  h = await openHarness(dir, { regToken: 'enrol-secret-123' });
  phone = createSoftAuthenticator({ origin: ORIGIN });
  laptop = createSoftAuthenticator({ origin: ORIGIN });
});
afterEach(() => cleanup());

describe('first enrolment (trust on first use) and sign-in', () => {
  it('enrols without a token while no passkey exists, then signs in and keeps the counter', async () => {
    expect(h.service.status({ owner: false })).toMatchObject({
      firstUseOpen: true,
      registrationOpen: true,
      passkeys: 0,
    });
    const { credential, session } = await enrol(h, phone, { label: 'Phone' });
    expect(credential).toEqual({
      id: phone.credentialId,
      label: 'Phone',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    expect(h.sessions.validate(session.id)?.credentialId).toBe(phone.credentialId);
    expect(session.expiresAt).toBe(h.clock.now() + TTL_SECONDS * 1000);
    expect(h.service.status({ owner: false })).toMatchObject({
      firstUseOpen: false,
      registrationOpen: false,
      passkeys: 1,
    });

    const login = await signIn(h, phone);
    expect(login.credentialId).toBe(phone.credentialId);
    expect(h.sessions.validate(login.session.id)).toBeDefined();
    const stored = JSON.parse(await credentialsFile(h));
    expect(stored.credentials[0]).toMatchObject({ counter: 1, lastUsedAt: new Date(h.clock.now()).toISOString() });
    expect(h.service.listCredentials()[0]).not.toHaveProperty('publicKey');
  });

  it('offers resident-key and user-verification options and excludes credentials already enrolled', async () => {
    const first = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: false } });
    expect(first.options.rp).toEqual({ name: 'Robot Cockpit', id: RP_ID });
    expect(first.options.authenticatorSelection).toMatchObject({
      residentKey: 'preferred',
      userVerification: 'preferred',
    });
    expect(first.options.excludeCredentials).toEqual([]);
    await h.service.registerComplete({
      challengeId: first.challengeId,
      response: phone.register(first.options),
      rpId: RP_ID,
      origin: ORIGIN,
    });
    const again = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: true } });
    expect(again.options.excludeCredentials).toEqual([
      { id: phone.credentialId, type: 'public-key', transports: ['internal'] },
    ]);
    expect(again.options.user.id).toBe(first.options.user.id);
    expect(() => phone.register(again.options)).toThrow(/InvalidStateError/);
  });

  it('lets exactly one of two concurrent first enrolments win', async () => {
    const a = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: false } });
    const b = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: false } });
    const results = await Promise.allSettled([
      h.service.registerComplete({
        challengeId: a.challengeId,
        response: phone.register(a.options),
        rpId: RP_ID,
        origin: ORIGIN,
      }),
      h.service.registerComplete({
        challengeId: b.challengeId,
        response: laptop.register(b.options),
        rpId: RP_ID,
        origin: ORIGIN,
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected');
    expect(lost?.reason).toMatchObject({
      code: 'AUTH_FORBIDDEN',
      status: 403,
      message: expect.stringMatching(/enrolment closed/),
    });
    expect(h.service.listCredentials()).toHaveLength(1);
    expect(JSON.parse(await credentialsFile(h)).credentials).toHaveLength(1);
  });
});

describe('later enrolments', () => {
  beforeEach(async () => {
    await enrol(h, phone);
  });

  it('are refused without a token, with a wrong token, and with a token when none is configured', async () => {
    await expectRefusedUnchanged(h, 'AUTH_FORBIDDEN', () => enrol(h, laptop));
    await expectRefusedUnchanged(h, 'AUTH_FORBIDDEN', () => enrol(h, laptop, { enrolToken: 'enrol-secret-124' }));
    const noToken = await openHarness(dir);
    await expectRefusedUnchanged(noToken, 'AUTH_FORBIDDEN', () => enrol(noToken, laptop, { enrolToken: 'anything' }));
  });

  it('are accepted with the enrolment token', async () => {
    const { credential } = await enrol(h, laptop, { enrolToken: 'enrol-secret-123', label: 'Laptop' });
    expect(credential.label).toBe('Laptop');
    expect(h.service.listCredentials().map((c) => c.id)).toEqual([phone.credentialId, laptop.credentialId]);
  });

  it('are accepted for a signed-in owner', async () => {
    await enrol(h, laptop, { caller: { owner: true } });
    expect(h.service.listCredentials()).toHaveLength(2);
  });

  it('are accepted once with a pairing code, which then stops working', async () => {
    const { code } = h.pairing.issue();
    await enrol(h, laptop, { pairingCode: code });
    const tablet = createSoftAuthenticator({ origin: ORIGIN });
    await expectRefusedUnchanged(h, 'AUTH_FORBIDDEN', () => enrol(h, tablet, { pairingCode: code }));
    expect(h.service.listCredentials()).toHaveLength(2);
  });

  it('refuse an expired pairing code', async () => {
    const { code } = h.pairing.issue();
    h.clock.advance(5 * 60_000);
    await expectRefusedUnchanged(h, 'AUTH_FORBIDDEN', () => enrol(h, laptop, { pairingCode: code }));
  });
});

describe('bad input never changes stored credentials', () => {
  beforeEach(async () => {
    await enrol(h, phone);
  });

  it('refuses a replayed registration or sign-in challenge (400)', async () => {
    const begin = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: true } });
    const response = laptop.register(begin.options);
    const input = { challengeId: begin.challengeId, response, rpId: RP_ID, origin: ORIGIN };
    await h.service.registerComplete(input);
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () => h.service.registerComplete(input));

    const login = await h.service.loginBegin({ rpId: RP_ID });
    const assertion = phone.login(login.options);
    const loginInput = { challengeId: login.challengeId, response: assertion, rpId: RP_ID, origin: ORIGIN };
    await h.service.loginComplete(loginInput);
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () => h.service.loginComplete(loginInput));
  });

  it('refuses expired challenges (400)', async () => {
    const begin = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: true } });
    const login = await h.service.loginBegin({ rpId: RP_ID });
    h.clock.advance(CHALLENGE_TTL_MS);
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      h.service.registerComplete({
        challengeId: begin.challengeId,
        response: laptop.register(begin.options),
        rpId: RP_ID,
        origin: ORIGIN,
      }),
    );
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      h.service.loginComplete({
        challengeId: login.challengeId,
        response: phone.login(login.options),
        rpId: RP_ID,
        origin: ORIGIN,
      }),
    );
  });

  it('refuses a challenge used for the other ceremony, and consumes it', async () => {
    const login = await h.service.loginBegin({ rpId: RP_ID });
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      h.service.registerComplete({ challengeId: login.challengeId, response: {}, rpId: RP_ID, origin: ORIGIN }),
    );
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      h.service.loginComplete({
        challengeId: login.challengeId,
        response: phone.login(login.options),
        rpId: RP_ID,
        origin: ORIGIN,
      }),
    );
  });

  it('refuses an unknown credential at sign-in (401)', async () => {
    await expectRefusedUnchanged(h, 'AUTH_REQUIRED', () => signIn(h, laptop, { ignoreAllowList: true }));
  });

  it('refuses malformed responses (400)', async () => {
    const good = async () => {
      const begin = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: true } });
      return { begin, response: laptop.register(begin.options) };
    };
    const bad: Array<(r: ReturnType<typeof laptop.register>) => unknown> = [
      () => null,
      () => 'text',
      (r) => ({ ...r, type: 'password' }),
      (r) => ({ ...r, rawId: 'other' }),
      (r) => ({ ...r, response: { ...r.response, clientDataJSON: '%%%' } }),
      (r) => ({ ...r, response: { ...r.response, clientDataJSON: Buffer.from('not json').toString('base64url') } }),
      (r) => ({ ...r, response: { ...r.response, attestationObject: Buffer.from('garbage').toString('base64url') } }),
      (r) => ({ ...r, response: { ...r.response, transports: 'usb' } }),
    ];
    for (const mutate of bad) {
      const { begin, response } = await good();
      await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
        h.service.registerComplete({
          challengeId: begin.challengeId,
          response: mutate(response),
          rpId: RP_ID,
          origin: ORIGIN,
        }),
      );
    }
    const login = await h.service.loginBegin({ rpId: RP_ID });
    const assertion = phone.login(login.options);
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      h.service.loginComplete({
        challengeId: login.challengeId,
        response: { ...assertion, response: { ...assertion.response, signature: 42 } },
        rpId: RP_ID,
        origin: ORIGIN,
      }),
    );
  });

  it('refuses a response made for another origin or relying party', async () => {
    const owner = { caller: { owner: true } };
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () => enrol(h, laptop, owner, { origin: 'https://evil.example' }));
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () => enrol(h, laptop, owner, { rpId: 'evil.example' }));
    await expectRefusedUnchanged(h, 'AUTH_REQUIRED', () => signIn(h, phone, { origin: 'https://evil.example' }));
    await expectRefusedUnchanged(h, 'AUTH_REQUIRED', () => signIn(h, phone, { challenge: 'AAAA' }));
  });

  it('refuses a signature counter that went backwards (a cloned authenticator)', async () => {
    await signIn(h, phone);
    await signIn(h, phone);
    await expectRefusedUnchanged(h, 'AUTH_REQUIRED', () => signIn(h, phone, { signCount: 1 }));
  });

  it('refuses a bad label before anything is stored', async () => {
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () =>
      enrol(h, laptop, { caller: { owner: true }, label: 'x'.repeat(65) }),
    );
    await expectRefusedUnchanged(h, 'BAD_REQUEST', () => enrol(h, laptop, { caller: { owner: true }, label: 'a\nb' }));
  });
});

describe('sessions and credential management', () => {
  it('keeps credentials and sessions across a new service instance over the same data dir', async () => {
    const { session } = await enrol(h, phone);
    const restarted = await openHarness(dir, { regToken: 'enrol-secret-123', clock: h.clock });
    expect(restarted.sessions.validate(session.id)?.credentialId).toBe(phone.credentialId);
    const login = await signIn(restarted, phone);
    expect(restarted.sessions.validate(login.session.id)).toBeDefined();
    await expectRefusedUnchanged(restarted, 'AUTH_FORBIDDEN', () => enrol(restarted, laptop));
  });

  it('refuses an expired session and removes it', async () => {
    const { session } = await enrol(h, phone);
    h.clock.advance(TTL_SECONDS * 1000 - 1);
    expect(h.sessions.validate(session.id)).toBeDefined();
    h.clock.advance(1);
    expect(h.sessions.validate(session.id)).toBeUndefined();
    // The removal is written in the background: the file loses the session once it lands (and the
    // test's folder is not removed under that write).
    const stored = async () => JSON.parse(await readFile(join(dir, SESSIONS_FILE), 'utf8')) as { sessions: unknown[] };
    await eventually(async () => (await stored()).sessions.length === 0, {
      what: 'the expired session removed from the file',
    });
  });

  it('logs out one session', async () => {
    const { session } = await enrol(h, phone);
    expect(await h.service.logout(session.id)).toBe(true);
    expect(h.sessions.validate(session.id)).toBeUndefined();
    expect(await h.service.logout(session.id)).toBe(false);
  });

  it('renames and deletes passkeys, ending the deleted passkey’s sessions', async () => {
    const { session } = await enrol(h, phone);
    await enrol(h, laptop, { caller: { owner: true } });
    expect(await h.service.renameCredential(phone.credentialId, '  Old phone ')).toMatchObject({ label: 'Old phone' });
    await expect(h.service.renameCredential('nope', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await h.service.deleteCredential(phone.credentialId);
    expect(h.sessions.validate(session.id)).toBeUndefined();
    expect(h.service.listCredentials().map((c) => c.id)).toEqual([laptop.credentialId]);
    await expect(h.service.deleteCredential(phone.credentialId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expectRefusedUnchanged(h, 'AUTH_REQUIRED', () => signIn(h, phone, { ignoreAllowList: true }));
  });

  it('keeps the last passkey when no owner token exists, and allows deleting it otherwise', async () => {
    await enrol(h, phone);
    const tokenless = await openHarness(dir, { ownerTokenExists: false });
    await expectRefusedUnchanged(tokenless, 'CONFLICT', () => tokenless.service.deleteCredential(phone.credentialId));
    await h.service.deleteCredential(phone.credentialId);
    expect(h.service.status({ owner: false }).firstUseOpen).toBe(true);
  });

  it('keeps enrolment closed to strangers when credentials.json was corrupt at start, also after another restart', async () => {
    await enrol(h, phone);
    await writeFile(join(dir, 'credentials.json'), '{"version":1,"userId":"x","credentials":[{"id":');
    const recovered = await openHarness(dir, { regToken: 'enrol-secret-123', clock: h.clock });
    expect(recovered.records.some((r) => r.level === 'warn')).toBe(true);
    expect(recovered.service.status({ owner: false })).toMatchObject({
      passkeys: 0,
      firstUseOpen: false,
      registrationOpen: false,
    });
    await expectRefusedUnchanged(recovered, 'AUTH_FORBIDDEN', () => enrol(recovered, laptop));
    // The set-aside file is gone from its place: a second restart must not read that as a first run.
    const again = await openHarness(dir, { regToken: 'enrol-secret-123', clock: h.clock });
    await expectRefusedUnchanged(again, 'AUTH_FORBIDDEN', () => enrol(again, laptop));
    // The owner still gets in: with the owner token, or the enrolment token.
    expect((await enrol(again, laptop, { caller: { owner: true } })).credential.id).toBe(laptop.credentialId);
    expect((await enrol(again, phone, { enrolToken: 'enrol-secret-123' })).credential.id).toBe(phone.credentialId);
  });
});
