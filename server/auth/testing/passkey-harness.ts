/**
 * Builds a passkey service over a temp data dir with a fake clock, plus short-hands for whole
 * ceremonies driven by a software authenticator.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LogRecord } from '../../log.ts';
import { recordingLog } from '../../store/testing/temp-dir.ts';
import { createPairingCodes } from '../pairing.ts';
import type { PairingCodes } from '../pairing.ts';
import { createPasskeyService } from '../passkeys.ts';
import type { PasskeyService, RegisterBeginInput } from '../passkeys.ts';
import { createSessionStore } from '../sessions.ts';
import type { SessionStore } from '../sessions.ts';
import { createFakeClock } from './fake-clock.ts';
import type { FakeClock } from './fake-clock.ts';
import type { SoftAuthenticator, Tweak } from './soft-authenticator.ts';

export const ORIGIN = 'https://robot.local:8098';
export const RP_ID = 'robot.local';
export const TTL_SECONDS = 43200;

export interface Harness {
  dataDir: string;
  clock: FakeClock;
  records: LogRecord[];
  sessions: SessionStore;
  pairing: PairingCodes;
  service: PasskeyService;
}

export async function openHarness(
  dataDir: string,
  options: { regToken?: string; ownerTokenExists?: boolean; clock?: FakeClock } = {},
): Promise<Harness> {
  const clock = options.clock ?? createFakeClock();
  const { log, records } = recordingLog();
  const sessions = await createSessionStore({ dataDir, clock, log });
  const pairing = createPairingCodes({ clock });
  const service = await createPasskeyService({
    dataDir,
    clock,
    log,
    regToken: options.regToken,
    sessions,
    sessionTtlSeconds: TTL_SECONDS,
    pairing,
    ...(options.ownerTokenExists === undefined ? {} : { ownerTokenExists: options.ownerTokenExists }),
  });
  return { dataDir, clock, records, sessions, pairing, service };
}

type BeginExtras = Partial<Omit<RegisterBeginInput, 'rpId' | 'origin'>>;

/** begin + authenticator + complete for a registration. */
export async function enrol(h: Harness, auth: SoftAuthenticator, extras: BeginExtras = {}, tweak?: Tweak) {
  const begin = await h.service.registerBegin({ rpId: RP_ID, origin: ORIGIN, caller: { owner: false }, ...extras });
  const response = auth.register(begin.options, tweak);
  return h.service.registerComplete({ challengeId: begin.challengeId, response, rpId: RP_ID, origin: ORIGIN });
}

/** begin + authenticator + complete for a sign-in. */
export async function signIn(h: Harness, auth: SoftAuthenticator, tweak?: Tweak) {
  const begin = await h.service.loginBegin({ rpId: RP_ID });
  const response = auth.login(begin.options, tweak);
  return h.service.loginComplete({ challengeId: begin.challengeId, response, rpId: RP_ID, origin: ORIGIN });
}

export async function credentialsFile(h: Harness): Promise<string> {
  try {
    return await readFile(join(h.dataDir, 'credentials.json'), 'utf8');
  } catch {
    return '<missing>';
  }
}

/** Asserts that `action` fails with `code` and leaves credentials.json byte for byte as it was. */
export async function expectRefusedUnchanged(h: Harness, code: string, action: () => Promise<unknown>): Promise<void> {
  const before = await credentialsFile(h);
  const listed = h.service.listCredentials();
  await expect(action()).rejects.toMatchObject({ code });
  expect(await credentialsFile(h)).toBe(before);
  expect(h.service.listCredentials()).toEqual(listed);
}
