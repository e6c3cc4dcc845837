/**
 * The device identity: platform URL, device id and device token. The token
 * is kept in the SecretStore and leaves this module only inside request bodies; nothing the
 * dashboard can read (status, logs) ever carries it.
 */
import type { PlatformEnrolInput } from '../server/contract/index.ts';
import { TOKEN_PATTERN } from './limits.ts';
import type { SecretStore } from './secret-store.ts';
import type { Outcome, PlatformLog } from './types.ts';
import { checkPlatformUrl } from './url-policy.ts';

/**
 * A device enrolled on the platform: an enrolment input (what the operator pastes, or the host
 * passes from ROBOT_PLATFORM_URL / _DEVICE_ID / _DEVICE_TOKEN) once checkEnrolInput accepted it.
 */
export type DeviceIdentity = PlatformEnrolInput;

/** Why an enrolment input or a stored identity was refused. */
export interface IdentityRefusal {
  kind: 'bad_request';
  message: string;
}

/** Name of the secret that holds the identity record. */
export const IDENTITY_SECRET = 'platform-device';

// Device ids are UUIDs on the original worker (docs/platform.md, "Devices" speaks of their dashes);
// any URL-safe id up to 128 characters is accepted so a format change does not lock us out.
const DEVICE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Validates pasted or environment-provided enrolment values into an identity. */
export function checkEnrolInput(input: unknown): Outcome<DeviceIdentity, IdentityRefusal> {
  const refuse = (message: string) => ({ ok: false as const, failure: { kind: 'bad_request' as const, message } });
  if (typeof input !== 'object' || input === null)
    return refuse('enrolment needs a platform URL, a device id and a token');
  const { platformUrl, deviceId, token } = input as Record<string, unknown>;
  if (typeof platformUrl !== 'string') return refuse('the platform URL is missing');
  const url = checkPlatformUrl(platformUrl);
  if (!url.ok) return refuse(url.failure.message);
  if (typeof deviceId !== 'string' || !DEVICE_ID.test(deviceId.trim()))
    return refuse('the device id is missing or malformed');
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token.trim())) return refuse('the device token is missing or malformed');
  return { ok: true, value: { platformUrl: url.value, deviceId: deviceId.trim(), token: token.trim() } };
}

/** The error code of a failed file operation (EISDIR, EACCES, EIO…), for a message. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'unreadable';
}

/** Loads, saves and forgets the identity in a SecretStore. */
export interface IdentityStore {
  /** The stored identity, null when none; a corrupt record is set aside and reported. */
  load(): Promise<Outcome<DeviceIdentity | null, IdentityRefusal>>;
  save(identity: DeviceIdentity): Promise<void>;
  forget(): Promise<void>;
}

/** Creates the identity store over a SecretStore. */
export function createIdentityStore(secrets: SecretStore, log: PlatformLog): IdentityStore {
  return {
    async load() {
      let raw: string | null;
      try {
        raw = await secrets.get(IDENTITY_SECRET);
      } catch (error) {
        // A store that cannot be read (a folder in the way, no permission, a failing disk) leaves
        // the robot unenrolled with the reason shown; the console starts all the same.
        log.error('stored platform identity could not be read', { error: String(error) });
        const message = `stored platform identity could not be read (${errorCode(error)})`;
        return { ok: false, failure: { kind: 'bad_request', message } };
      }
      if (raw === null) return { ok: true, value: null };
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = null;
      }
      const checked = checkEnrolInput(parsed);
      if (checked.ok) return checked;
      // docs/architecture.md, "Configuration and persistence": a corrupt file is reported and set aside, never silently replaced.
      const aside = await secrets.setAside(IDENTITY_SECRET).catch((error: unknown) => {
        // Kept where it is (a read-only folder): it is still reported, and the console still starts.
        log.error('stored platform identity could not be set aside', { error: String(error) });
        return null;
      });
      log.error('stored platform identity is unreadable; set aside', { aside, reason: checked.failure.message });
      return {
        ok: false,
        failure: {
          kind: 'bad_request',
          message: `stored platform identity is unreadable (${checked.failure.message}); enrol again`,
        },
      };
    },
    save: (identity) => secrets.set(IDENTITY_SECRET, JSON.stringify(identity)),
    forget: () => secrets.delete(IDENTITY_SECRET),
  };
}
