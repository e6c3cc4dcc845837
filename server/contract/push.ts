/**
 * The Web Push console routes (server/push/README-push.md): the kinds of notice the owner can
 * switch off, the settings view and its patch, and what a test push reports. Declared once for
 * the cockpit and the dashboard (docs/contract.md).
 */

/** The kinds of notice, each of which the owner can switch off. */
export type PushKind = 'daemon' | 'camera' | 'stop' | 'agent' | 'platform';

export interface PushSettingsView {
  subject: string;
  kinds: Record<PushKind, boolean>;
  /** How many browsers are subscribed, in all and for the caller's credential. */
  subscriptions: { total: number; yours: number };
}

/** Body of PUT /api/console/push/settings: what to change. */
export interface PushSettingsPatch {
  subject?: string;
  kinds?: Partial<Record<PushKind, boolean>>;
}

export interface SendResult {
  sent: number;
  /** Subscriptions the push service called gone (404, 410), now deleted. */
  pruned: number;
  /** Other failures: refused, unreachable, timed out. The subscription is kept. */
  failed: number;
}
