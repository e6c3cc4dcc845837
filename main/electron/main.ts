/**
 * The Electron main process, kept thin and read as a list: setupServer (the cockpit
 * `npm run serve` runs, in a utility process the app restarts when it dies), setupWindow,
 * setupNotifications, setupTray, then the server's snapshots (pushed once a second) and its
 * restarts shown in the tray and alerts. Every decision lives in a plain module under
 * main/desktop/ with tests; these files only hand Electron the answers.
 *
 * No preload and no IPC into the page: the window is the same dashboard a browser gets, talking
 * HTTP and WebSocket to the cockpit (docs/architecture.md, "Processes and data flow"). The one message channel is between
 * this process and the server process it started (main/desktop/cockpit-link.ts).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog } from 'electron';
import { APP_ID, PRODUCT_NAME } from '../desktop/app-identity.ts';
import { restartNotice, serverSnapshot, withServer } from '../desktop/server-status.ts';
import { assetsDir } from '../desktop/shell-paths.ts';
import { setupNotifications } from './notifications.ts';
import { setupServer } from './server.ts';
import { setupTray } from './tray.ts';
import { setupWindow } from './window.ts';

interface RunningShell {
  show(): void;
  stop(): Promise<void>;
}

async function startShell(): Promise<RunningShell> {
  const assets = assetsDir({
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    mainDir: dirname(fileURLToPath(import.meta.url)),
  });
  const server = await setupServer();
  const window = await setupWindow(server, assets);
  const notifications = setupNotifications(server, window);
  const tray = setupTray(server, window, notifications, assets);
  window.onFirstHide(() =>
    notifications.report('Still running', `${PRODUCT_NAME} keeps serving the robot. Quit it from the tray menu.`),
  );
  let serverState = serverSnapshot(server.supervisor.state());
  let closed = false;
  const show = () => {
    const last = server.remote.lastSnapshot();
    // Snapshots keep coming until the server has stopped; the tray is gone by then.
    if (!last || closed) return;
    const snapshot = withServer(last, serverState);
    tray.update(snapshot);
    notifications.update(snapshot);
  };
  server.remote.onSnapshot(show);
  // A restart is said in the log (by the loop), in the tray (a status line) and as a notice.
  const offState = server.supervisor.onState((state) => {
    serverState = serverSnapshot(state, serverState);
    const notice = restartNotice(state);
    if (notice) notifications.notice(notice);
    show();
  });
  show();
  return {
    show: () => window.show(),
    async stop() {
      closed = true;
      offState();
      tray.destroy();
      notifications.closeAll();
      await window.close();
      // Sockets get 1001, listeners drain; the daemon's media is left to the daemon (server/index.ts).
      await server.stop();
    },
  };
}

function fail(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`cockpit failed to start: ${message}\n`);
  dialog.showErrorBox(`${PRODUCT_NAME} could not start`, message);
  app.exit(2);
}

if (!app.requestSingleInstanceLock()) {
  // A second launch: the first instance shows its window ('second-instance' below); this one leaves.
  app.quit();
} else {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  let shell: RunningShell | undefined;
  let shutdown: Promise<void> | undefined;
  let stopped = false;
  const starting = app.whenReady().then(startShell);
  starting.then((running) => (shell = running), fail);
  app.on('second-instance', () => shell?.show());
  // macOS: a click on the Dock icon brings the hidden window back.
  app.on('activate', () => shell?.show());
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    // Once: a quit during start-up waits for the start, so nothing is left half-open.
    shutdown ??= starting
      .then(
        (running) => running.stop(),
        () => undefined,
      )
      .catch((err: unknown) => void process.stderr.write(`cockpit: shutdown failed: ${String(err)}\n`))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  // Ctrl+C in the terminal of `npm start`, or a service manager: the same graceful quit.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
}
