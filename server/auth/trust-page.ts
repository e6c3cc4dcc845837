/**
 * The page a phone opens to trust the robot's local certificate authority before it signs in
 * over HTTPS. Rendered on the server, without scripts, so it
 * works on any browser before anything is trusted.
 */
import QRCode from 'qrcode';

export interface TrustPageInput {
  /** Where this page is reachable from a phone on the LAN (plain http). */
  pageUrl: string;
  /** The HTTPS address to open once the authority is trusted. */
  secureUrl: string | undefined;
  caFingerprint: string;
}

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STEPS: [string, string[]][] = [
  ['iPhone and iPad', [
    'Tap “Download the certificate” below, then “Allow”.',
    'Open Settings › General › VPN & Device Management, tap “Robot Cockpit local CA”, then Install.',
    'Open Settings › General › About › Certificate Trust Settings and switch on full trust for it.',
  ]],
  ['Android', [
    'Tap “Download the certificate” below.',
    'Open Settings › Security › Encryption & credentials › Install a certificate › CA certificate.',
    'Choose the downloaded file (robot-cockpit-ca.crt) and confirm.',
  ]],
  ['macOS', [
    'Download the certificate and double-click it: Keychain Access opens.',
    'Find “Robot Cockpit local CA” in the System keychain, open it, and under Trust choose “Always Trust”.',
  ]],
  ['Windows', [
    'Download the certificate and double-click it, then “Install Certificate…”.',
    'Choose “Local Machine”, then “Place all certificates in the following store” › “Trusted Root Certification Authorities”.',
  ]],
  ['Linux', [
    'Chromium and Chrome: Settings › Privacy and security › Security › Manage certificates › Authorities › Import.',
    'Firefox: Settings › Privacy & Security › Certificates › View Certificates › Authorities › Import.',
    'System-wide (Debian, Ubuntu): copy it to /usr/local/share/ca-certificates/ and run sudo update-ca-certificates.',
  ]],
];

export async function renderTrustPage(input: TrustPageInput): Promise<string> {
  const qr = await QRCode.toString(input.pageUrl, { type: 'svg', margin: 1, color: { dark: '#0b1220', light: '#ffffff' } });
  const sections = STEPS.map(
    ([platform, steps]) =>
      `<section><h2>${escape(platform)}</h2><ol>${steps.map((s) => `<li>${escape(s)}</li>`).join('')}</ol></section>`,
  ).join('\n');
  const next = input.secureUrl
    ? `<p>Then open <a href="${escape(input.secureUrl)}">${escape(input.secureUrl)}</a> and sign in with a passkey.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Trust this robot · Robot Cockpit</title>
<link rel="icon" href="data:,">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#0b1220;color:#e6edf7}
main{max-width:40rem;margin:0 auto;padding:1.5rem}
a{color:#7cc4ff}.qr{background:#fff;border-radius:12px;padding:8px;width:12rem;height:12rem}
.button{display:inline-block;background:#2d7ff9;color:#fff;padding:.75rem 1.25rem;border-radius:10px;text-decoration:none;font-weight:600}
code{word-break:break-all;font-size:.85rem}section{border-top:1px solid #24324a;margin-top:1rem}
</style></head>
<body><main>
<h1>Trust this robot</h1>
<p>Browsers allow passkeys only over HTTPS. This robot signs its HTTPS certificate with its own local
certificate authority. Install that authority once on each phone or computer you use to drive the robot.</p>
<p><a class="button" href="/ca.crt" download="robot-cockpit-ca.crt">Download the certificate</a></p>
<p>Check the fingerprint (SHA-256) after installing:<br><code>${escape(input.caFingerprint)}</code></p>
${next}
<p>Scan to open this page on a phone:</p>
<div class="qr" role="img" aria-label="QR code for ${escape(input.pageUrl)}">${qr}</div>
${sections}
</main></body></html>`;
}
