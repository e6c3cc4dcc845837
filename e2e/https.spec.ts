/**
 * The first passkey over the desktop server's HTTPS listener, with the robot's generated certificate
 * authority trusted, as a phone on the LAN would use it.
 *
 * How the CA is trusted here: Chromium on Linux trusts user CAs only through an NSS database,
 * which needs `certutil` (not installed here) and would change the machine's trust. So the test
 * proves the chain in Node instead, and pins exactly that certificate in the browser:
 * 1. Node connects with the generated CA (`<dataDir>/tls/ca-cert.pem`, the file behind /ca.crt)
 *    as its only trust anchor, for the name `localhost`, and the handshake must verify.
 * 2. A Chromium is launched with `--ignore-certificate-errors-spki-list=<SHA-256 of the server
 *    certificate's public key>`, which accepts that one key and nothing else: any other
 *    certificate still fails. `ignoreHTTPSErrors` (accepting anything) is not used.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { expect, test } from './fixtures/cockpit.ts';
import { addVirtualAuthenticator, enrolFirstPasskey, sessionCookie } from './pages/passkeys.ts';

test.use({ cockpitHttps: true });

/** The server certificate, from a TLS handshake that trusts only the given CA. */
function verifiedPeer(port: number, ca: string): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ca }, () => {
      const peer = socket.getPeerCertificate();
      const authorized = socket.authorized;
      socket.end();
      if (authorized) resolve(peer);
      else reject(new Error(`not authorized: ${String(socket.authorizationError)}`));
    });
    socket.once('error', reject);
  });
}

test('the first passkey is enrolled over HTTPS with the generated CA trusted', async ({
  page,
  cockpit,
  playwright,
  launchOptions,
  browserErrors,
}) => {
  const httpsUrl = cockpit.httpsUrl;
  if (!httpsUrl) throw new Error('the cockpit was started without HTTPS');
  const caPem = await readFile(join(cockpit.dataDir, 'tls', 'ca-cert.pem'), 'utf8');
  const served = await fetch(`${cockpit.url}/ca.crt`);
  expect(await served.text()).toBe(caPem);

  const peer = await verifiedPeer(Number(new URL(httpsUrl).port), caPem);
  const certificate = new X509Certificate(peer.raw);
  expect(certificate.checkIssued(new X509Certificate(caPem))).toBe(true);
  // The test's usual browser, without the pin, refuses the certificate: the pin is what trusts it.
  await expect(page.goto(`${httpsUrl}/`)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);

  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  const pin = createHash('sha256').update(spki).digest('base64');

  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--ignore-certificate-errors-spki-list=${pin}`],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const phone = await context.newPage();
    browserErrors.watch(phone);
    const device = await addVirtualAuthenticator(phone);
    await phone.goto(`${httpsUrl}/`);
    expect(await phone.evaluate('window.isSecureContext')).toBe(true);

    await enrolFirstPasskey(phone, httpsUrl, 'Phone over HTTPS');
    expect(await device.count()).toBe(1);
    await expect(phone.getByRole('group', { name: 'Connection' })).toContainText('Live');
    const cookie = (await context.cookies()).find((c) => c.name === 'cockpit_session');
    expect(cookie?.secure).toBe(true);
    expect(await sessionCookie(context)).toBeTruthy();

    await phone.getByRole('button', { name: 'Sign out', exact: true }).click();
    await phone.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(phone.getByText('Simulated robot')).toBeVisible();
    await context.close();
  } finally {
    await browser.close();
  }
});
