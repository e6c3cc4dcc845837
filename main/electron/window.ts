/**
 * setupWindow(): the one window, on the local dashboard. It is a browser tab with guard rails
 * (Electron security checklist): sandboxed, isolated, no Node, a strict CSP on its own session,
 * links out to the system browser, permissions decided one by one, and an owner session given
 * as a cookie. Closing it hides it: the cockpit keeps serving phones until Quit.
 */
import { BrowserWindow, screen, session, shell, type Session } from 'electron';
import { contentSecurityPolicy, withPolicy } from '../desktop/csp.ts';
import { navigationDecision, newWindowDecision, pairingPageUrl, permissionAllowed } from '../desktop/navigation.ts';
import { appIconFile } from '../desktop/shell-paths.ts';
import {
  createWindowStateSaver,
  MIN_SIZE,
  placeWindow,
  readWindowState,
  windowStateFile,
  type WindowState,
  type WindowStateSaver,
} from '../desktop/window-state.ts';
import { createWindowSession, sessionCookie } from '../desktop/window-session.ts';
import type { DesktopServer } from './server.ts';

export interface DesktopWindow {
  show(): void;
  /** Shows the dashboard's security page, where the pairing QR code is made. */
  showPairing(): void;
  /** Called the first time a close only hides the window. */
  onFirstHide(listener: () => void): void;
  /** Saves the bounds, ends the window's session and closes the window for good. */
  close(): Promise<void>;
}

/** Its own persistent partition: the cookie, the CSP hook and the permissions apply to it alone. */
const PARTITION = 'persist:robot-cockpit';

export async function setupWindow(server: DesktopServer, assets: string): Promise<DesktopWindow> {
  const { origin, log, remote } = server;
  const ses = session.fromPartition(PARTITION);
  guardSession(ses, origin);
  const { window, saver } = await createWindow(windowStateFile(server.dataDir), assets, log);
  guardNavigation(window, origin);
  const keeper = createWindowSession({
    create: (ttl) => remote.createWindowSession(ttl),
    destroy: (id) => remote.destroySession(id),
    install: (issued) => ses.cookies.set(sessionCookie(origin, issued)),
    // A reload of the page being shown, so a renewal does not move the operator elsewhere.
    reload: () => window.loadURL(localUrlOf(window, origin)),
    windowBusy: () => window.isVisible() && window.isFocused(),
    onError: (error) => log.warn('window session renewal failed', { error: String(error) }),
  });
  // Without its session the window still opens, on the sign-in card: the operator can use the token.
  await keeper
    .start()
    .catch((error: unknown) => log.error('could not give the window its session', { error: String(error) }));
  window
    .loadURL(`${origin}/`)
    .catch((error: unknown) => log.warn('the dashboard did not load', { error: String(error) }));
  return windowHandle(window, origin, { saver, keeper });
}

function guardSession(ses: Session, origin: string): void {
  const policy = contentSecurityPolicy(origin);
  ses.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) =>
    callback({ responseHeaders: withPolicy(details.responseHeaders, policy) }),
  );
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(
      permissionAllowed(
        { permission, requestingUrl: details.requestingUrl, ...(mediaTypes ? { mediaTypes } : {}) },
        origin,
      ),
    );
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    permissionAllowed({ permission, requestingUrl: requestingOrigin }, origin),
  );
}

async function createWindow(
  stateFile: string,
  assets: string,
  log: DesktopServer['log'],
): Promise<{ window: BrowserWindow; saver: WindowStateSaver }> {
  const saved = await readWindowState(stateFile);
  if (saved.problem) log.warn(saved.problem);
  const placed = placeWindow(
    saved.state,
    screen.getAllDisplays().map((d) => d.workArea),
    screen.getPrimaryDisplay().workArea,
  );
  const window = new BrowserWindow({
    ...placed.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Robot Cockpit',
    icon: appIconFile(assets),
    // The dashboard's own background, so nothing flashes white before the first paint.
    backgroundColor: '#0e1116',
    webPreferences: {
      partition: PARTITION,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  if (placed.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  const saver = createWindowStateSaver({
    file: stateFile,
    onError: (error) => log.warn('could not save the window position', { error: String(error) }),
  });
  const remember = () => saver.update(currentState(window));
  window.on('resize', remember);
  window.on('move', remember);
  window.on('maximize', remember);
  window.on('unmaximize', remember);
  return { window, saver };
}

function currentState(window: BrowserWindow): WindowState {
  return { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
}

function guardNavigation(window: BrowserWindow, origin: string): void {
  const contents = window.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    if (newWindowDecision(url) === 'external') void shell.openExternal(url);
    return { action: 'deny' };
  });
  const guard = (event: { url: string; preventDefault(): void }) => {
    const decision = navigationDecision(event.url, origin);
    if (decision === 'stay') return;
    event.preventDefault();
    if (decision === 'external') void shell.openExternal(event.url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // A crashed page comes back rather than leaving a blank window.
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason !== 'clean-exit') void window.loadURL(`${origin}/`);
  });
}

function localUrlOf(window: BrowserWindow, origin: string): string {
  const url = window.webContents.getURL();
  return navigationDecision(url, origin) === 'stay' ? url : `${origin}/`;
}

function windowHandle(
  window: BrowserWindow,
  origin: string,
  parts: { saver: WindowStateSaver; keeper: { stop(): Promise<void> } },
): DesktopWindow {
  let closing = false;
  let hiddenOnce = false;
  const firstHide = new Set<() => void>();
  window.on('close', (event) => {
    if (closing) return;
    event.preventDefault();
    window.hide();
    if (!hiddenOnce) firstHide.forEach((listener) => listener());
    hiddenOnce = true;
  });
  const show = () => {
    if (window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  return {
    show,
    showPairing() {
      show();
      if (!window.isDestroyed()) void window.loadURL(pairingPageUrl(origin));
    },
    onFirstHide: (listener) => void firstHide.add(listener),
    async close() {
      closing = true;
      await parts.saver.flush();
      // The window goes before its session: ending the session first would flash the sign-in card.
      if (!window.isDestroyed()) window.destroy();
      await parts.keeper.stop();
    },
  };
}
