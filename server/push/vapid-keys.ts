/**
 * The VAPID key pair (RFC 8292) that signs every push: made on first run, kept in
 * `<data dir>/push-vapid.json` (0600, written atomically, docs/architecture.md, "Configuration and persistence"). Browsers subscribe
 * with the public key, so it must outlive restarts; if the file is lost or set aside as corrupt,
 * a new pair is made and the dashboards re-subscribe when they see the key changed.
 */
import { join } from 'node:path';
import webpush from 'web-push';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { decodeBase64Url } from './base64url.ts';

export interface VapidKeys {
  /** Uncompressed P-256 point, base64url (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** The P-256 private scalar, base64url (32 bytes). Never leaves the cockpit. */
  privateKey: string;
  createdAt: number;
}

export const VAPID_FILE = 'push-vapid.json';

function validate(u: unknown): VapidKeys | null | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  if (typeof r.publicKey !== 'string' || typeof r.privateKey !== 'string' || typeof r.createdAt !== 'number')
    return undefined;
  const pub = decodeBase64Url(r.publicKey);
  const priv = decodeBase64Url(r.privateKey);
  if (pub?.length !== 65 || pub[0] !== 4 || priv?.length !== 32) return undefined;
  return { publicKey: r.publicKey, privateKey: r.privateKey, createdAt: r.createdAt };
}

/** Loads the key pair, making and saving one when there is none. */
export async function loadVapidKeys(deps: { dataDir: string; log: Log; now?: () => number }): Promise<VapidKeys> {
  const doc = createJsonDocument<VapidKeys | null>({
    file: join(deps.dataDir, VAPID_FILE),
    defaults: () => null,
    validate,
    log: deps.log,
  });
  const stored = await doc.load();
  if (stored) return stored;
  const fresh = webpush.generateVAPIDKeys();
  const keys: VapidKeys = { ...fresh, createdAt: (deps.now ?? Date.now)() };
  await doc.save(keys);
  deps.log.info('made a new VAPID key pair for Web Push; browsers subscribed before must subscribe again');
  return keys;
}
