/**
 * The on-disk shape of credentials.json and its validator (docs/contract.md, "How the desktop server behaves": id, public
 * key, sign count, label, created time; 0600 like every data-dir file).
 */
import { isRecord, isStringArray } from './shape.ts';

export interface StoredCredential {
  /** base64url credential id. */
  id: string;
  /** base64url COSE public key. */
  publicKey: string;
  /** The authenticator's signature counter, to spot cloned authenticators. */
  counter: number;
  transports: readonly string[];
  label: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, null until the first sign-in. */
  lastUsedAt: string | null;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

export interface CredentialsFile {
  version: 1;
  /** base64url WebAuthn user handle of the one owner; stable so every passkey names one user. */
  userId: string;
  credentials: readonly StoredCredential[];
  /**
   * Set when the file was found corrupt and set aside: the owner's passkeys existed but could
   * not be read, so an empty list must not open trust on first use. Cleared by the next enrolment.
   */
  firstUseClosed?: true;
}

export function parseCredentialsFile(u: unknown): CredentialsFile | undefined {
  if (!isRecord(u) || u['version'] !== 1 || typeof u['userId'] !== 'string') return undefined;
  if (!Array.isArray(u['credentials'])) return undefined;
  const credentials: StoredCredential[] = [];
  for (const c of u['credentials']) {
    const parsed = parseCredential(c);
    if (!parsed) return undefined;
    credentials.push(parsed);
  }
  const closed = u['firstUseClosed'];
  if (closed !== undefined && closed !== true) return undefined;
  return { version: 1, userId: u['userId'], credentials, ...(closed ? { firstUseClosed: true as const } : {}) };
}

function parseCredential(c: unknown): StoredCredential | undefined {
  if (!isRecord(c)) return undefined;
  const { id, publicKey, counter, transports, label, createdAt, lastUsedAt, deviceType, backedUp } = c;
  if (typeof id !== 'string' || typeof publicKey !== 'string' || typeof label !== 'string') return undefined;
  if (!Number.isInteger(counter) || (counter as number) < 0 || !isStringArray(transports)) return undefined;
  if (typeof createdAt !== 'string' || (lastUsedAt !== null && typeof lastUsedAt !== 'string')) return undefined;
  if (deviceType !== 'singleDevice' && deviceType !== 'multiDevice') return undefined;
  if (typeof backedUp !== 'boolean') return undefined;
  return { id, publicKey, counter: counter as number, transports, label, createdAt, lastUsedAt, deviceType, backedUp };
}
