/**
 * HTTPS for the LAN: passkeys need a secure context, and a phone on the LAN reaches the
 * robot by name or address. On first run a local certificate authority is created in
 * `<dataDir>/tls/` and kept: the owner installs its certificate once per device, and the wheeled server
 * reuses it. The server certificate it signs is re-issued whenever it would no longer do.
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { setAside, writeFileAtomic } from '../store/atomic-write.ts';
import type { Clock } from './clock.ts';
import { isCertAddress, isDnsName } from '../http/host-identity.ts';
import {
  certificateCovers,
  createCaCertificate,
  generateRsaKeyPair,
  issueServerCertificate,
  keyMatchesCertificate,
} from './tls-certs.ts';

export const TLS_DIR = 'tls';
/** Renew this long before expiry so a certificate never lapses between restarts. */
export const RENEW_BEFORE_MS = 30 * 86_400_000;

const CA_KEY = 'ca-key.pem';
const CA_CERT = 'ca-cert.pem';

export interface TlsOptions {
  dataDir: string;
  hostNames: readonly string[];
  addresses: readonly string[];
  clock: Clock;
  log: Log;
  /**
   * File stem of the server key and certificate, 'server' by default. The wheeled server passes its own
   * stem to get its own certificate from the shared authority.
   */
  leaf?: string;
}

export interface TlsMaterial {
  /** The CA certificate devices install (and pass as `ca` to trust the server). */
  caCertPem: string;
  /** The server (leaf) certificate. */
  certPem: string;
  /** The server private key. */
  keyPem: string;
  /** SHA-256 of the CA certificate, "AB:CD:..." as browsers display it. */
  caFingerprint: string;
  /** When the server certificate expires (epoch ms); call ensureTls again before then. */
  expiresAt: number;
}

interface Pair {
  keyPem: string;
  certPem: string;
}

/** One run at a time per folder: two servers starting together must not each create a CA. */
const running = new Map<string, Promise<unknown>>();

/** Loads the CA and server certificate, creating or re-issuing what is missing or stale. */
export async function ensureTls(options: TlsOptions): Promise<TlsMaterial> {
  const bad = [
    ...options.hostNames.filter((n) => !isDnsName(n)),
    ...options.addresses.filter((a) => !isCertAddress(a)),
  ];
  if (bad.length > 0) throw new RangeError(`not usable in a certificate: ${bad.join(', ')}`);
  if (options.leaf !== undefined && !/^[a-z0-9-]{1,32}$/.test(options.leaf))
    throw new RangeError('leaf must be a short file stem');
  const dir = join(options.dataDir, TLS_DIR);
  const previous = running.get(dir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => ensureIn(dir, options));
  running.set(dir, run);
  try {
    return await run;
  } finally {
    if (running.get(dir) === run) running.delete(dir);
  }
}

async function ensureIn(dir: string, options: TlsOptions): Promise<TlsMaterial> {
  const ca = await ensureCa(dir, options);
  const server = await ensureServer(dir, ca, options);
  return {
    caCertPem: ca.certPem,
    certPem: server.certPem,
    keyPem: server.keyPem,
    caFingerprint: new X509Certificate(ca.certPem).fingerprint256,
    expiresAt: Date.parse(new X509Certificate(server.certPem).validTo),
  };
}

async function ensureCa(dir: string, options: TlsOptions): Promise<Pair> {
  const now = options.clock.now();
  const existing = await readPair(join(dir, CA_KEY), join(dir, CA_CERT));
  if (existing && validFor(existing, now)) return existing;
  if (existing) {
    // Never delete a CA key silently: devices may still trust it. Keep both files aside.
    const asides = await setAsideAll(dir, [CA_KEY, CA_CERT], now);
    options.log.warn(
      'local certificate authority unusable or expiring; created a new one, devices must trust it again',
      {
        asides,
      },
    );
  }
  const keys = generateRsaKeyPair();
  const certPem = createCaCertificate(keys, now, `Robot Cockpit local CA (${hostname()})`);
  // Key first: a crash before the cert is written leaves a mismatch, which is redone next start.
  await writeFileAtomic(join(dir, CA_KEY), keys.privateKeyPem);
  await writeFileAtomic(join(dir, CA_CERT), certPem);
  options.log.info('created a local certificate authority', { dir });
  return { keyPem: keys.privateKeyPem, certPem };
}

async function ensureServer(dir: string, ca: Pair, options: TlsOptions): Promise<Pair> {
  const now = options.clock.now();
  const leaf = options.leaf ?? 'server';
  const [keyFile, certFile] = [join(dir, `${leaf}-key.pem`), join(dir, `${leaf}-cert.pem`)];
  const existing = await readPair(keyFile, certFile);
  if (existing && validFor(existing, now) && issuedBy(existing.certPem, ca.certPem)) {
    if (certificateCovers(existing.certPem, options.hostNames, options.addresses)) return existing;
  }
  const keys = generateRsaKeyPair();
  const certPem = issueServerCertificate({
    caCertPem: ca.certPem,
    caKeyPem: ca.keyPem,
    serverPublicKeyPem: keys.publicKeyPem,
    hostNames: options.hostNames,
    addresses: options.addresses,
    now,
  });
  await writeFileAtomic(keyFile, keys.privateKeyPem);
  await writeFileAtomic(certFile, certPem);
  options.log.info('issued a server certificate', { names: options.hostNames, addresses: options.addresses });
  return { keyPem: keys.privateKeyPem, certPem };
}

/** Parses, matches its key, has started and has more than RENEW_BEFORE_MS left. */
function validFor(pair: Pair, now: number): boolean {
  try {
    const cert = new X509Certificate(pair.certPem);
    const from = Date.parse(cert.validFrom);
    const to = Date.parse(cert.validTo);
    return from <= now && to - now > RENEW_BEFORE_MS && keyMatchesCertificate(pair.certPem, pair.keyPem);
  } catch {
    return false;
  }
}

function issuedBy(certPem: string, caCertPem: string): boolean {
  const cert = new X509Certificate(certPem);
  const ca = new X509Certificate(caCertPem);
  return cert.checkIssued(ca) && cert.verify(ca.publicKey);
}

async function readPair(keyFile: string, certFile: string): Promise<Pair | undefined> {
  const [keyPem, certPem] = await Promise.all([readOptional(keyFile), readOptional(certFile)]);
  if (keyPem === undefined && certPem === undefined) return undefined;
  return { keyPem: keyPem ?? '', certPem: certPem ?? '' };
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function setAsideAll(dir: string, names: readonly string[], now: number): Promise<string[]> {
  const asides: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    if ((await readOptional(file)) !== undefined) asides.push(await setAside(file, now));
  }
  return asides;
}
