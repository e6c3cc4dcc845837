/**
 * Where the desktop window may go. It shows the local dashboard and nothing else: links that
 * leave it open in the system browser, and only http(s) ones, so a crafted link cannot hand a
 * file:, javascript: or custom-scheme URL to the operating system (Electron security checklist
 * §14, "Do not use shell.openExternal with untrusted content").
 */

/**
 * The dashboard's origin for the window. `localhost`, not 127.0.0.1: it is a secure context by
 * name, so passkey ceremonies and the other secure-context APIs work in the window. A server
 * bound to one specific address is reached at that address.
 */
export function windowOrigin(host: string, port: number): string {
  const loopbackOrWildcard = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost', ''].includes(host);
  if (loopbackOrWildcard) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What to do with a navigation or a window.open: stay, hand to the system browser, or refuse. */
export type LinkDecision = 'stay' | 'external' | 'deny';

/** A navigation of the window itself (will-navigate, will-redirect). */
export function navigationDecision(target: string, localOrigin: string): LinkDecision {
  const url = parse(target);
  if (!url) return 'deny';
  if (url.origin === localOrigin) return 'stay';
  return isWeb(url) ? 'external' : 'deny';
}

/**
 * A window.open or target=_blank link. The window never opens a second Electron window: even
 * local pages (a certificate download, a camera stream) go to the system browser.
 */
export function newWindowDecision(target: string): Exclude<LinkDecision, 'stay'> {
  const url = parse(target);
  return url && isWeb(url) ? 'external' : 'deny';
}

/** The dashboard page that shows the pairing QR code (renderer/src/features/shell/routes.ts). */
export function pairingPageUrl(localOrigin: string): string {
  return `${localOrigin}/#/settings/security`;
}

function parse(target: string): URL | undefined {
  try {
    return new URL(target);
  } catch {
    return undefined;
  }
}

function isWeb(url: URL): boolean {
  // Credentials in the address would be shown to the browser and its history: refuse them.
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
}

export interface PermissionAsk {
  /** Electron's permission name ('media', 'fullscreen', 'clipboard-sanitized-write', …). */
  permission: string;
  /** The page asking (requestingUrl of the details, or the checking origin). */
  requestingUrl: string;
  /** For 'media': what is asked for; empty or absent when Electron does not say. */
  mediaTypes?: readonly string[];
}

/**
 * What the dashboard may use (Electron security checklist §5: decide every permission). Only
 * the local dashboard asks, and only for what its features need: full screen for the camera,
 * the microphone for the wheeled robot's voice, writing the clipboard for copy buttons.
 */
export function permissionAllowed(ask: PermissionAsk, localOrigin: string): boolean {
  if (parse(ask.requestingUrl)?.origin !== localOrigin) return false;
  switch (ask.permission) {
    case 'fullscreen':
    case 'clipboard-sanitized-write':
      return true;
    case 'media':
      return (ask.mediaTypes ?? []).length > 0 && (ask.mediaTypes ?? []).every((t) => t === 'audio');
    default:
      return false;
  }
}
