/**
 * The desktop server's HTTPS listener for LAN browsers (passkeys need a secure context), with the
 * certificate from the local authority, renewed while running, and the CA download and trust
 * page that the shell serves publicly.
 */
import { SERVER_OPTIONS } from '../http/listeners.ts';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { RequestListener } from 'node:http';
import type { ShellExtras } from '../http/static-shell.ts';
import type { Log } from '../log.ts';
import { systemClock } from './clock.ts';
import { hostIdentity } from '../http/host-identity.ts';
import { ensureTls, type TlsMaterial } from './tls.ts';
import { renderTrustPage } from './trust-page.ts';

const RENEW_CHECK_MS = 12 * 3600_000;

/**
 * A connection must finish its TLS handshake within this, as a plain HTTP one must send its
 * headers (SERVER_OPTIONS.headersTimeout). Node's own default is 120 s, so a crowd of silent
 * connections to the HTTPS port held a socket each for two minutes before any HTTP timeout applied.
 */
export const TLS_HANDSHAKE_MS = 10_000;

export interface HttpsService {
  readonly tls: TlsMaterial;
  /** Built lazily: only when an HTTPS port is configured. */
  server(listener: RequestListener): HttpsServer;
  shellExtras(urls: { httpPort: number; httpsPort: number }): ShellExtras;
  /** The address a phone on the LAN should use for HTTPS, or undefined without a LAN name. */
  secureBaseUrl(httpsPort: number): string | undefined;
  stop(): void;
}

export async function createHttpsService(options: {
  dataDir: string;
  log: Log;
  leaf?: string;
  handshakeMs?: number;
}): Promise<HttpsService> {
  const identity = hostIdentity();
  const issue = () =>
    ensureTls({
      dataDir: options.dataDir,
      ...identity,
      clock: systemClock,
      log: options.log,
      ...(options.leaf ? { leaf: options.leaf } : {}),
    });
  let tls = await issue();
  let server: HttpsServer | undefined;
  const renew = setInterval(() => {
    issue().then(
      (next) => {
        if (next.certPem !== tls.certPem) server?.setSecureContext({ key: next.keyPem, cert: next.certPem });
        tls = next;
      },
      (err: unknown) => options.log.warn('certificate renewal failed', { error: String(err) }),
    );
  }, RENEW_CHECK_MS);
  renew.unref();
  const lanName = identity.hostNames.find((n) => n.endsWith('.local'));
  const lanAddress = identity.addresses.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a) && !a.startsWith('127.'));
  const secureBaseUrl = (httpsPort: number) => (lanName ? `https://${lanName}:${httpsPort}` : undefined);
  return {
    get tls() {
      return tls;
    },
    server(listener) {
      const handshakeTimeout = options.handshakeMs ?? TLS_HANDSHAKE_MS;
      server ??= createHttpsServer(
        { ...SERVER_OPTIONS, handshakeTimeout, key: tls.keyPem, cert: tls.certPem },
        listener,
      );
      return server;
    },
    secureBaseUrl,
    shellExtras({ httpPort, httpsPort }) {
      return {
        '/ca.crt': (ctx) => {
          ctx.type = 'application/x-x509-ca-cert';
          ctx.set('Content-Disposition', 'attachment; filename="robot-cockpit-ca.crt"');
          ctx.set('Cache-Control', 'no-cache');
          ctx.body = tls.caCertPem;
        },
        '/trust': async (ctx) => {
          ctx.type = 'text/html; charset=utf-8';
          ctx.set('Cache-Control', 'no-cache');
          ctx.body = await renderTrustPage({
            pageUrl: `http://${lanAddress ?? lanName ?? 'localhost'}:${httpPort}/trust`,
            secureUrl: httpsPort > 0 ? secureBaseUrl(httpsPort) : undefined,
            caFingerprint: tls.caFingerprint,
          });
        },
      };
    },
    stop: () => clearInterval(renew),
  };
}
