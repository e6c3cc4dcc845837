/**
 * Certificate building with node-forge: a local certificate authority and the server
 * certificates it signs. Keys come from node:crypto (fast native RSA); forge only assembles and
 * signs the X.509 structures, which node cannot do.
 */
import { X509Certificate, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

const DAY_MS = 86_400_000;
export const CA_VALIDITY_MS = 3650 * DAY_MS;
/** The longest leaf lifetime Apple platforms accept (825 days). */
export const SERVER_VALIDITY_MS = 825 * DAY_MS;
/** Back-date notBefore so a client whose clock is a little behind still accepts a fresh cert. */
const BACKDATE_MS = 60 * 60_000;

export interface KeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateRsaKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A positive 128-bit serial (RFC 5280 §4.1.2.2): the top bit is cleared so DER keeps it positive. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] as number) & 0x7f;
  return bytes.toString('hex');
}

function sign(cert: forge.pki.Certificate, privateKeyPem: string): string {
  cert.sign(forge.pki.privateKeyFromPem(privateKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A self-signed CA certificate valid ten years from `now`. */
export function createCaCertificate(keys: KeyPair, now: number, commonName: string): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicKeyPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now - BACKDATE_MS);
  cert.validity.notAfter = new Date(now + CA_VALIDITY_MS);
  const subject = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Robot Cockpit' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    // pathLen 0: this CA signs server certificates only, never another CA.
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  return sign(cert, keys.privateKeyPem);
}

export interface ServerCertRequest {
  caCertPem: string;
  caKeyPem: string;
  serverPublicKeyPem: string;
  hostNames: readonly string[];
  addresses: readonly string[];
  now: number;
}

/** A server certificate for every name and address, never outliving its CA. */
export function issueServerCertificate(req: ServerCertRequest): string {
  const ca = forge.pki.certificateFromPem(req.caCertPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(req.serverPublicKeyPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(req.now - BACKDATE_MS);
  cert.validity.notAfter = new Date(Math.min(req.now + SERVER_VALIDITY_MS, ca.validity.notAfter.getTime()));
  cert.setSubject([{ name: 'commonName', value: req.hostNames[0] ?? 'localhost' }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        ...req.hostNames.map((value) => ({ type: 2, value })),
        ...req.addresses.map((ip) => ({ type: 7, ip })),
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  return sign(cert, req.caKeyPem);
}

/** True when the certificate's SAN lists every requested name (case-insensitive) and address. */
export function certificateCovers(
  certPem: string,
  hostNames: readonly string[],
  addresses: readonly string[],
): boolean {
  const ext = forge.pki.certificateFromPem(certPem).getExtension('subjectAltName') as
    { altNames?: Array<{ type: number; value: string; ip?: string }> } | undefined;
  const alt = ext?.altNames ?? [];
  const dns = new Set(alt.filter((a) => a.type === 2).map((a) => a.value.toLowerCase()));
  const ips = new Set(alt.flatMap((a) => (a.type === 7 && a.ip ? [canonicalIp(a.ip)] : [])));
  return hostNames.every((n) => dns.has(n.toLowerCase())) && addresses.every((a) => ips.has(canonicalIp(a)));
}

/** One spelling per address ("0:0:0:0:0:0:0:1" and "::1" are the same), via the URL parser. */
function canonicalIp(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  try {
    return new URL(`http://[${ip}]`).hostname;
  } catch {
    return ip;
  }
}

/** True when `certPem` carries the public half of `privateKeyPem`. */
export function keyMatchesCertificate(certPem: string, privateKeyPem: string): boolean {
  const fromCert = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  const fromKey = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
  return fromCert.equals(fromKey);
}
