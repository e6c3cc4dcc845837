/**
 * The wheeled server's public trust pages (docs/contract.md, "How the wheeled server behaves"): /ca is the page a
 * phone opens to trust the robot's local certificate authority (download, QR code, steps for
 * iOS, Android, macOS, Windows and Linux, from server/auth/trust-page.ts), /ca.crt the
 * certificate itself, /trust the name the desktop server uses for the same page, and /field-card a
 * printable card to stick on the robot. With ROBOT_B_TLS=0 there is nothing to trust, and the
 * pages say so rather than offering a certificate the server does not use.
 */
import type { Context } from 'koa';
import QRCode from 'qrcode';
import { renderTrustPage } from '../../auth/trust-page.ts';
import { AppError } from '../../errors.ts';
import type { RouteSpec } from '../../http/route-table.ts';

export interface TrustDeps {
  /** The current CA and fingerprint; undefined when B runs without TLS. */
  tls: () => { caCertPem: string; caFingerprint: string } | undefined;
  /** The dashboard's address as a phone on the LAN reaches it, e.g. https://rover.local:8080. */
  lanUrl: () => string;
}

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function html(ctx: Context, body: string): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = body;
}

const NO_TLS_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<title>No certificate · Robot Cockpit</title></head><body><main><h1>No certificate to trust</h1>' +
  '<p>This robot serves its dashboard over plain HTTP (ROBOT_B_TLS=0), so there is no certificate authority to install. ' +
  'Passkeys need HTTPS on other devices: turn TLS back on to use them from a phone.</p></main></body></html>';

export async function renderFieldCard(input: {
  dashboardUrl: string;
  trustUrl: string;
  caFingerprint: string | undefined;
}): Promise<string> {
  const qr = await QRCode.toString(input.dashboardUrl, { type: 'svg', margin: 1 });
  const fingerprint = input.caFingerprint
    ? `<p>Certificate authority (SHA-256):<br><code>${escape(input.caFingerprint)}</code></p><p>First time on this device? Open <b>${escape(input.trustUrl)}</b> to trust it.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Field card · Robot Cockpit</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#111}.card{width:85mm;border:1px solid #111;border-radius:4mm;padding:4mm;margin:8mm}
.qr{width:40mm;height:40mm}code{word-break:break-all;font-size:9px}h1{font-size:16px;margin:0 0 2mm}@media print{.card{margin:0}}</style></head>
<body><div class="card"><h1>Drive this rover</h1><div class="qr" role="img" aria-label="QR code for ${escape(input.dashboardUrl)}">${qr}</div>
<p>Scan, or open <b>${escape(input.dashboardUrl)}</b>, then sign in with a passkey.</p>${fingerprint}</div></body></html>`;
}

export function trustRoutes(deps: TrustDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/ca',
      access: 'public',
      summary: 'trust page: CA download, QR code, steps for iOS, Android, macOS, Windows, Linux',
      async handler(ctx) {
        const tls = deps.tls();
        if (!tls) return html(ctx, NO_TLS_PAGE);
        const base = deps.lanUrl();
        html(ctx, await renderTrustPage({ pageUrl: `${base}/ca`, secureUrl: base, caFingerprint: tls.caFingerprint }));
      },
    },
    {
      method: 'GET',
      path: '/ca.crt',
      access: 'public',
      summary: 'the local certificate authority (PEM) to install; 404 with ROBOT_B_TLS=0',
      handler(ctx) {
        const tls = deps.tls();
        if (!tls) throw new AppError('NOT_FOUND', 'TLS is off (ROBOT_B_TLS=0): there is no certificate authority');
        ctx.type = 'application/x-x509-ca-cert';
        ctx.set('Content-Disposition', 'attachment; filename="robot-cockpit-ca.crt"');
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = tls.caCertPem;
      },
    },
    {
      method: 'GET',
      path: '/trust',
      access: 'public',
      summary: 'the desktop server’s name for the trust page: redirects to /ca',
      handler(ctx) {
        ctx.redirect('/ca');
      },
    },
    {
      method: 'GET',
      path: '/field-card',
      access: 'public',
      summary: 'printable card: QR code of the dashboard address and the CA fingerprint',
      async handler(ctx) {
        const base = deps.lanUrl();
        html(
          ctx,
          await renderFieldCard({
            dashboardUrl: `${base}/`,
            trustUrl: `${base}/ca`,
            caFingerprint: deps.tls()?.caFingerprint,
          }),
        );
      },
    },
  ];
}
