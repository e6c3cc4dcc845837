import { X509Certificate } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { systemClock } from './clock.ts';
import { hostIdentity } from '../http/host-identity.ts';
import { createFakeClock } from './testing/fake-clock.ts';
import { certificateCovers } from './tls-certs.ts';
import { ensureTls } from './tls.ts';
import type { TlsMaterial } from './tls.ts';

const DAY = 86_400_000;
const names = ['localhost', 'robot-test', 'robot-test.local'];
const addresses = ['127.0.0.1', '::1', '192.168.1.20', 'fe80::1c2b:3dff:fe4e:5f60'];

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

/** Serves one HTTPS request with `tls` and fetches it as a client that trusts only `ca`. */
async function fetchOver(tls: TlsMaterial, client: { ca?: string; servername?: string }): Promise<string> {
  const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = get({ host: '127.0.0.1', port, path: '/', agent: false, ...client }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('ensureTls', () => {
  it('creates a CA and a server certificate that a client trusting only the CA accepts', async () => {
    const { log } = recordingLog();
    const tls = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log });
    expect(await fetchOver(tls, { ca: tls.caCertPem, servername: 'robot-test.local' })).toBe('ok');
    expect(await fetchOver(tls, { ca: tls.caCertPem })).toBe('ok'); // by IP address SAN
    await expect(fetchOver(tls, {})).rejects.toMatchObject({
      code: expect.stringMatching(/UNABLE_TO_VERIFY|SELF_SIGNED/),
    });
    await expect(fetchOver(tls, { ca: tls.caCertPem, servername: 'other.local' })).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(tls.caFingerprint).toBe(new X509Certificate(tls.caCertPem).fingerprint256);
  });

  it('writes every file 0600 and keeps the CA key across runs', async () => {
    const { log } = recordingLog();
    const first = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log });
    const files = (await readdir(join(dir, 'tls'))).sort();
    expect(files).toEqual(['ca-cert.pem', 'ca-key.pem', 'server-cert.pem', 'server-key.pem']);
    for (const f of files) expect((await stat(join(dir, 'tls', f))).mode & 0o777).toBe(0o600);
    const caKey = await readFile(join(dir, 'tls', 'ca-key.pem'), 'utf8');
    const second = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log });
    expect(second).toEqual(first);
    expect(await readFile(join(dir, 'tls', 'ca-key.pem'), 'utf8')).toBe(caKey);
  });

  it('lists every name and address in the SAN and re-issues when a new one appears', async () => {
    const { log } = recordingLog();
    const clock = createFakeClock(Date.now());
    const first = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock, log });
    expect(certificateCovers(first.certPem, names, addresses)).toBe(true);
    expect(certificateCovers(first.certPem, ['ROBOT-TEST.local'], ['0:0:0:0:0:0:0:1'])).toBe(true);
    expect(certificateCovers(first.certPem, ['robot-test.lan'], [])).toBe(false);
    const san = new X509Certificate(first.certPem).subjectAltName ?? '';
    for (const n of names) expect(san).toContain(`DNS:${n}`);
    expect(san).toContain('IP Address:192.168.1.20');

    const moved = await ensureTls({
      dataDir: dir,
      hostNames: names,
      addresses: [...addresses, '10.0.0.7'],
      clock,
      log,
    });
    expect(moved.certPem).not.toBe(first.certPem);
    expect(moved.caCertPem).toBe(first.caCertPem);
    expect(certificateCovers(moved.certPem, names, [...addresses, '10.0.0.7'])).toBe(true);
  });

  it('keeps the server certificate until 30 days before expiry, then renews it under the same CA', async () => {
    const { log } = recordingLog();
    const clock = createFakeClock(Date.now());
    const first = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock, log });
    expect(first.expiresAt - clock.now()).toBeLessThanOrEqual(825 * DAY);
    expect(first.expiresAt - clock.now()).toBeGreaterThan(824 * DAY);
    clock.set(first.expiresAt - 31 * DAY);
    expect((await ensureTls({ dataDir: dir, hostNames: names, addresses, clock, log })).certPem).toBe(first.certPem);
    clock.set(first.expiresAt - 29 * DAY);
    const renewed = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock, log });
    expect(renewed.certPem).not.toBe(first.certPem);
    expect(renewed.caCertPem).toBe(first.caCertPem);
    expect(renewed.expiresAt).toBeGreaterThan(first.expiresAt);
  });

  it('sets an unusable CA aside with a warning instead of silently replacing it', async () => {
    const { log, records } = recordingLog();
    const first = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log });
    await writeFile(join(dir, 'tls', 'ca-cert.pem'), 'garbage');
    const second = await ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log });
    expect(second.caCertPem).not.toBe(first.caCertPem);
    expect(await fetchOver(second, { ca: second.caCertPem })).toBe('ok');
    const asides = (await readdir(join(dir, 'tls'))).filter((f) => f.includes('.corrupt-'));
    expect(asides).toHaveLength(2);
    expect(records.filter((r) => r.level === 'warn')).toHaveLength(1);
  });

  it('gives the wheeled server its own certificate from the same authority, even when both start at once', async () => {
    const { log } = recordingLog();
    const [a, b] = await Promise.all([
      ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log }),
      ensureTls({ dataDir: dir, hostNames: names, addresses, clock: systemClock, log, leaf: 'server-b' }),
    ]);
    expect(b.caCertPem).toBe(a.caCertPem);
    expect(b.certPem).not.toBe(a.certPem);
    expect(await fetchOver(b, { ca: a.caCertPem })).toBe('ok');
    expect((await readdir(join(dir, 'tls'))).sort()).toEqual([
      'ca-cert.pem',
      'ca-key.pem',
      'server-b-cert.pem',
      'server-b-key.pem',
      'server-cert.pem',
      'server-key.pem',
    ]);
  });

  it('refuses names and addresses a certificate cannot carry', async () => {
    const { log } = recordingLog();
    await expect(
      ensureTls({ dataDir: dir, hostNames: ['bad name'], addresses: [], clock: systemClock, log }),
    ).rejects.toThrow(RangeError);
    await expect(
      ensureTls({ dataDir: dir, hostNames: [], addresses: ['::ffff:1.2.3.4'], clock: systemClock, log }),
    ).rejects.toThrow(RangeError);
  });
});

describe('hostIdentity', () => {
  it('lists localhost, the host and .local names, loopback and non-internal addresses', () => {
    const identity = hostIdentity({
      hostname: () => 'Robot-1.lan',
      interfaces: () => ({
        lo: [{ address: '127.0.0.1', internal: true } as never],
        eth0: [
          { address: '192.168.1.20', internal: false } as never,
          { address: 'FE80::1', internal: false } as never,
          { address: '::ffff:192.168.1.20', internal: false } as never,
        ],
      }),
    });
    expect(identity.hostNames).toEqual(['localhost', 'robot-1.lan', 'robot-1', 'robot-1.local']);
    expect(identity.addresses).toEqual(['127.0.0.1', '::1', '192.168.1.20', 'fe80::1']);
  });

  it('skips a host name that is not a DNS name and works with the real host', () => {
    expect(hostIdentity({ hostname: () => 'my_pc', interfaces: () => ({}) }).hostNames).toEqual(['localhost']);
    const real = hostIdentity();
    expect(real.hostNames).toContain('localhost');
    expect(real.addresses).toEqual(expect.arrayContaining(['127.0.0.1', '::1']));
  });
});
