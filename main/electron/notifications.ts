/**
 * setupNotifications(): native notifications for health alerts, platform notify envelopes and
 * tray refusals. When to speak is decided in main/desktop (health-alerts.ts, platform-notices.ts);
 * this only shows, replaces same-tag notices, and routes clicks.
 */
import { Notification, shell } from 'electron';
import type { PlatformNotice } from '../../platform-client/index.ts';
import { createHealthAlerts, type DesktopNotice } from '../desktop/health-alerts.ts';
import { createPlatformNotices } from '../desktop/platform-notices.ts';
import type { CockpitSnapshot } from '../desktop/tray-model.ts';
import type { DesktopServer } from './server.ts';
import type { DesktopWindow } from './window.ts';

export interface DesktopNotifications {
  /** A fresh cockpit snapshot: raises the health alerts it calls for. */
  update(snapshot: CockpitSnapshot): void;
  /** A refusal or failure the operator should see (a tray action). */
  report(title: string, message: string): void;
  /** A notice decided elsewhere (a server restart, main/desktop/server-status.ts). */
  notice(notice: DesktopNotice): void;
  closeAll(): void;
}

export function setupNotifications(server: DesktopServer, window: DesktopWindow): DesktopNotifications {
  const alerts = createHealthAlerts();
  const platform = createPlatformNotices();
  // Held so a notice is not garbage-collected with its click handler, and replaced by tag.
  const shown = new Map<string, Notification>();

  const show = (notice: DesktopNotice, onClick: () => void = () => window.show()) => {
    if (!Notification.isSupported()) return;
    shown.get(notice.tag)?.close();
    const native = new Notification({
      title: notice.title,
      body: notice.body,
      urgency: notice.urgent ? 'critical' : 'normal',
      timeoutType: notice.urgent ? 'never' : 'default',
    });
    native.on('click', onClick);
    native.on('close', () => shown.get(notice.tag) === native && shown.delete(notice.tag));
    shown.set(notice.tag, native);
    native.show();
  };

  server.onPlatformNotice((notification: PlatformNotice) => {
    const view = platform.accept(notification, Date.now());
    if (!view) return;
    const { openUrl } = view;
    show(view.notice, openUrl ? () => void shell.openExternal(openUrl) : undefined);
  });

  return {
    update(snapshot) {
      for (const notice of alerts.observe(snapshot, Date.now())) show(notice);
    },
    report: (title, message) => show({ tag: 'tray', title, body: message, urgent: false }),
    notice: (notice) => show(notice),
    closeAll() {
      for (const native of shown.values()) native.close();
      shown.clear();
    },
  };
}
