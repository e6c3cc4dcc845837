/**
 * Platform `notify` envelopes as native notifications. The cockpit already shows them on every
 * dashboard (`{type: "notify"}` on /ws); the desktop app adds the native one so an operator
 * away from the window still sees them. The same notice arriving again within a short time (a
 * redelivered envelope, a burst from one event) is shown once.
 */
import type { PlatformNotice } from '../../platform-client/index.ts';
import type { DesktopNotice } from './health-alerts.ts';
import { newWindowDecision } from './navigation.ts';

export interface PlatformNoticeView {
  notice: DesktopNotice;
  /** What a click opens in the system browser; undefined means "show the dashboard". */
  openUrl: string | undefined;
}

export interface PlatformNotices {
  accept(notification: PlatformNotice, now: number): PlatformNoticeView | undefined;
}

export function createPlatformNotices(options: { repeatMs?: number } = {}): PlatformNotices {
  const repeatMs = options.repeatMs ?? 10_000;
  const lastShown = new Map<string, number>();
  return {
    accept(n, now) {
      for (const [key, at] of lastShown) if (now - at >= repeatMs) lastShown.delete(key);
      const key = JSON.stringify([n.tag, n.title, n.body]);
      if (lastShown.has(key)) return undefined;
      lastShown.set(key, now);
      return {
        notice: {
          // Namespaced, so a platform tag can never replace one of the health alerts.
          tag: `platform:${n.tag || key}`,
          title: n.title.trim() || 'Robot Cockpit',
          body: n.body,
          urgent: false,
        },
        // Only web addresses go to the browser (navigation.ts); anything else shows the dashboard.
        openUrl: n.url && newWindowDecision(n.url) === 'external' ? n.url : undefined,
      };
    },
  };
}
