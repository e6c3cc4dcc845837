/**
 * The cockpit's view of the platform client (issue 10). server/ may not import platform-client/
 * (ARCHITECTURE.md §2), so this is a structural port: main/ hands the client in as it is, and the
 * compiler checks that it fits. The status is JSON-safe and never carries the device token; the
 * feed below turns its changes into `{type: "platform"}` frames on /ws, and notify envelopes
 * into an event receipt plus a `{type: "notify"}` frame.
 */
import type { EventInput } from './event-log.ts';

/** The firmware part of the status (the platform client's FirmwareStatus). */
export interface PlatformFirmwareView {
  state: string;
  channel: string;
  currentVersion: string | null;
  available: string | null;
  staged: string | null;
  lastCheckedAt: number | null;
  message: string | null;
}

/**
 * What the dashboard reads from GET /api/console/platform and /ws `platform` frames. Times are
 * epoch milliseconds. Documented in platform-client/README.md ("Status").
 */
export interface PlatformStatusView {
  enrolled: boolean;
  identitySource: 'stored' | 'env' | null;
  platformUrl: string | null;
  deviceId: string | null;
  connected: boolean;
  online: boolean;
  lastHeartbeatAt: number | null;
  envelopesHandled: number;
  lastError: { kind: string; message: string; at: number } | null;
  unread: number | null;
  halted: { reason: string; since: number; message: string } | null;
  firmware: PlatformFirmwareView;
}

/** Errors as values, as the platform client returns them. */
export type PortOutcome<T> = { ok: true; value: T } | { ok: false; failure: { kind: string; message: string } };

/** The pasted enrolment (platform URL, device id, device token). */
export interface PlatformEnrolInput {
  platformUrl: string;
  deviceId: string;
  token: string;
}

/** The platform client as the cockpit uses it. */
export interface PlatformPort {
  status(): PlatformStatusView;
  onChange(listener: (status: PlatformStatusView) => void): () => void;
  /** Checks the values (https, or http on a loopback host), proves them with a heartbeat, stores them. */
  enrol(input: PlatformEnrolInput): Promise<PortOutcome<PlatformStatusView>>;
  /** Resumes the loops after disconnect(). */
  connect(): void;
  /** Stops the loops and keeps the identity; local control is untouched. */
  disconnect(): Promise<void>;
  /** Stops the loops and deletes the stored identity. */
  forget(): Promise<void>;
  setFirmwareChannel(channel: string): PortOutcome<void>;
}

/** A notify envelope (the push mirror, platform-api.md "Web Push" 3). */
export interface PlatformNotice {
  title: string;
  body: string;
  tag: string;
  url: string;
}

/** The status as it leaves the cockpit: only these fields, whatever the port's object holds. */
export function platformView(status: PlatformStatusView): PlatformStatusView & { available: true } {
  const { firmware: f, lastError: e, halted: x } = status;
  return {
    available: true,
    enrolled: status.enrolled,
    identitySource: status.identitySource,
    platformUrl: status.platformUrl,
    deviceId: status.deviceId,
    connected: status.connected,
    online: status.online,
    lastHeartbeatAt: status.lastHeartbeatAt,
    envelopesHandled: status.envelopesHandled,
    lastError: e ? { kind: e.kind, message: e.message, at: e.at } : null,
    unread: status.unread,
    halted: x ? { reason: x.reason, since: x.since, message: x.message } : null,
    firmware: {
      state: f.state,
      channel: f.channel,
      currentVersion: f.currentVersion,
      available: f.available,
      staged: f.staged,
      lastCheckedAt: f.lastCheckedAt,
      message: f.message,
    },
  };
}

export interface PlatformFeed {
  /** Raises a notify envelope on every dashboard: an event receipt and a `notify` frame. */
  notify(notice: PlatformNotice): void;
  /** Stops following the port's status. */
  close(): void;
}

/** Follows the port (when there is one) and broadcasts through the features' late-bound hub. */
export function createPlatformFeed(deps: {
  port: PlatformPort | undefined;
  emit: (event: EventInput) => void;
  broadcast: (frame: object) => void;
}): PlatformFeed {
  const unsubscribe =
    deps.port?.onChange((status) => deps.broadcast({ type: 'platform', ...platformView(status) })) ?? (() => {});
  return {
    notify({ title, body, tag, url }) {
      deps.emit({
        type: 'event',
        action: 'notify',
        text: body ? `platform: ${title}: ${body}` : `platform: ${title}`,
        values: { title, body, tag, url },
        // Nobody on this robot asked: the platform pushed it (README "Event receipts").
        credential: 'system',
      });
      deps.broadcast({ type: 'notify', title, body, tag, url });
    },
    close: unsubscribe,
  };
}
