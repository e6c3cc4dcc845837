/**
 * The Electron main process, kept thin (ARCHITECTURE.md §2): it starts the same cockpit that
 * `npm run serve` runs, in-process, and opens one window on its dashboard. Everything else is in
 * plain modules under server/ and main/.
 */
import { app, BrowserWindow, Notification, shell } from 'electron';
import type { PlatformNotification } from '../../platform-client/index.ts';
import { composeCockpit, type ComposedCockpit } from '../compose.ts';
import { parseArgs } from '../flags.ts';
import { daemonAnswers } from '../launch.ts';

let cockpit: ComposedCockpit | undefined;
let window: BrowserWindow | undefined;

async function setupServer(): Promise<{ url: string; token: string }> {
  const { flags } = parseArgs(process.argv.slice(2));
  const explicit = flags.sim === true || flags.daemon !== undefined || Boolean(process.env['ROBOT_DAEMON_URL']);
  const chosen = explicit || (await daemonAnswers('http://127.0.0.1:8000')) ? flags : { ...flags, sim: true };
  cockpit = await composeCockpit({ flags: chosen, onNotify: showNotification });
  return { url: `http://localhost:${cockpit.cockpit.port}`, token: cockpit.ownerToken };
}

/** A platform notify envelope as a desktop notification too; a click brings the window forward. */
function showNotification(notification: PlatformNotification): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notification.title || 'Robot Cockpit', body: notification.body });
  shown.on('click', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  shown.show();
}

function setupWindow(url: string, token: string): void {
  window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Robot Cockpit',
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  // Links that leave the local dashboard open in the system browser, never in this window.
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:/.test(target)) void shell.openExternal(target);
    return { action: 'deny' };
  });
  void window.loadURL(`${url}/?token=${encodeURIComponent(token)}`);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.whenReady().then(async () => {
    const { url, token } = await setupServer();
    setupWindow(url, token);
  }, (err: unknown) => {
    process.stderr.write(`cockpit failed to start: ${String(err)}\n`);
    app.exit(2);
  });
  app.on('before-quit', (event) => {
    if (!cockpit) return;
    event.preventDefault();
    const stopping = cockpit;
    cockpit = undefined;
    void stopping.stop().finally(() => app.quit());
  });
}
