/**
 * setupTray(): the tray icon and its menu, drawn from the pure model in main/desktop/tray-model.ts.
 * The icon is redrawn only when the tone changes and the menu rebuilt only when the model
 * changes (Linux needs setContextMenu again for any change to show).
 */
import { app, clipboard, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import { trayIconFile } from '../desktop/shell-paths.ts';
import { runTrayAction, type TrayDeps } from '../desktop/tray-actions.ts';
import {
  healthVerdict,
  trayMenu,
  trayTooltip,
  type CockpitSnapshot,
  type MenuEntry,
  type Tone,
} from '../desktop/tray-model.ts';
import type { DesktopNotifications } from './notifications.ts';
import type { DesktopServer } from './server.ts';
import type { DesktopWindow } from './window.ts';

export interface DesktopTray {
  /** Redraws from a fresh snapshot of the cockpit. */
  update(snapshot: CockpitSnapshot): void;
  destroy(): void;
}

export function setupTray(
  server: DesktopServer,
  window: DesktopWindow,
  notifications: DesktopNotifications,
  assets: string,
): DesktopTray {
  const icon = (tone: Tone) => nativeImage.createFromPath(trayIconFile(assets, tone));
  const tray = new Tray(icon('degraded'));
  let last: CockpitSnapshot | undefined;
  let drawnTone: Tone | undefined;
  let drawnMenu = '';
  // Read once: asking the OS every second is needless, and only this menu changes it.
  let atLogin = openAtLogin();
  const deps: TrayDeps = {
    control: server.remote.control,
    openDashboard: () => window.show(),
    openPairing: () => window.showPairing(),
    openPlatformSettings: () => window.show(),
    platform: server.remote.platform,
    recordings: server.remote.recordings,
    copyRemoteAddress() {
      const address = server.remoteAddress();
      if (address) clipboard.writeText(address);
    },
    setOpenAtLogin(on) {
      app.setLoginItemSettings({ openAtLogin: on });
      atLogin = openAtLogin();
    },
    quit: () => app.quit(),
    report: (title, message) => notifications.report(title, message),
  };
  // After an action the menu shows its effect at once, not at the next tick.
  const act = (entry: Extract<MenuEntry, { action: unknown }>, checked?: boolean) =>
    void runTrayAction(entry.action, deps, checked).then(() => last && update(last));

  function update(snapshot: CockpitSnapshot): void {
    last = snapshot;
    const { tone } = healthVerdict(snapshot);
    if (tone !== drawnTone) tray.setImage(icon(tone));
    drawnTone = tone;
    tray.setToolTip(trayTooltip(snapshot));
    const model = trayMenu({ snapshot, openAtLogin: atLogin, remoteUrl: server.remoteAddress() });
    const key = JSON.stringify(model);
    if (key === drawnMenu) return;
    drawnMenu = key;
    tray.setContextMenu(Menu.buildFromTemplate(model.map((entry) => menuItem(entry, act))));
  }

  // Windows and Linux: a click on the icon opens the dashboard (macOS opens the menu).
  tray.on('click', () => window.show());
  return { update, destroy: () => tray.destroy() };
}

/** Electron can set "open at login" on macOS and Windows only. */
function openAtLogin(): boolean | undefined {
  return process.platform === 'linux' ? undefined : app.getLoginItemSettings().openAtLogin;
}

function menuItem(
  entry: MenuEntry,
  act: (entry: Extract<MenuEntry, { action: unknown }>, checked?: boolean) => void,
): MenuItemConstructorOptions {
  switch (entry.type) {
    case 'separator':
      return { type: 'separator' };
    case 'status':
      return { label: entry.label, enabled: false };
    case 'action':
      return { label: entry.label, enabled: entry.enabled, click: () => act(entry) };
    case 'checkbox':
      // Electron has already flipped `checked` when click runs: that is the state asked for.
      return {
        type: 'checkbox',
        label: entry.label,
        checked: entry.checked,
        enabled: entry.enabled,
        click: (item) => act(entry, item.checked),
      };
  }
}
