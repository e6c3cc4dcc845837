/**
 * The cockpit's view of the platform client. server/ may not import platform-client/
 * (docs/architecture.md, "Folders and the direction of imports"), so this is a structural port: main/ hands the client in as it is, and the
 * compiler checks that it fits. The status is JSON-safe and never carries the device token; the
 * feed below turns its changes into `{type: "platform"}` frames on /ws, and notify envelopes
 * into an event receipt plus a `{type: "notify"}` frame.
 */
import type { PlatformStatus, PlatformStatusView } from '../contract/platform.ts';
import type {
  PlatformEndpointEnrolInput,
  PlatformEndpointEnrolled,
  PlatformEnrolInput,
  PlatformNotice,
  PlatformSessionEnrolInput,
} from '../contract/platform-enrol.ts';
import type { NotifyFrame, PlatformFrame } from '../contract/ws.ts';
import type { EventInput } from './event-log.ts';

/** Errors as values, as the platform client returns them. */
export type PortOutcome<T> = { ok: true; value: T } | { ok: false; failure: { kind: string; message: string } };

/** The platform client as the cockpit uses it. */
export interface PlatformPort {
  status(): PlatformStatus;
  onChange(listener: (status: PlatformStatus) => void): () => void;
  /** Checks the values (https, or http on a loopback host), proves them with a heartbeat, stores them. */
  enrol(input: PlatformEnrolInput): Promise<PortOutcome<PlatformStatus>>;
  /** Resumes the loops after disconnect(). */
  connect(): void;
  /** Stops the loops and keeps the identity; local control is untouched. */
  disconnect(): Promise<void>;
  /** Stops the loops and deletes the stored identity. */
  forget(): Promise<void>;
  /** Persists the channel and reads its pointer at the next opportunity. */
  setFirmwareChannel(channel: string): Promise<PortOutcome<void>>;
  /** Persists the operator's consent to install a staged bundle once the robot is idle. */
  setFirmwareInstall(allowed: boolean): Promise<PortOutcome<void>>;
  /** Creates this robot as a device with the owner's session token (POST /api/devices), then enrols it. */
  enrolWithSession(input: PlatformSessionEnrolInput): Promise<PortOutcome<PlatformStatus>>;
  /** Proves the owner's session token against the platform (listing devices), then stores it for use_device. */
  setOwnerSession(token: string): Promise<PortOutcome<PlatformStatus>>;
  /** Deletes the stored owner session token. */
  forgetOwnerSession(): Promise<PortOutcome<PlatformStatus>>;
  /**
   * Re-keys this device with the stored owner session (POST /api/devices/adopt) after its token
   * was rotated elsewhere, stores the new token and reconnects.
   */
  adoptToken(): Promise<PortOutcome<PlatformStatus>>;
  /**
   * Creates this robot as an endpoint device with the owner's session token (POST /api/devices
   * {name, kind: endpoint, url, secret}): the platform dials `url` with `secret` as bearer. The
   * pull-device identity and the status are untouched.
   */
  enrolEndpoint(input: PlatformEndpointEnrolInput): Promise<PortOutcome<Omit<PlatformEndpointEnrolled, 'url'>>>;
}

/** The status as it leaves the cockpit: only these fields, whatever the port's object holds. */
export function platformView(status: PlatformStatus): PlatformStatusView {
  const { firmware: f, lastError: e, halted: x, tokenNotice: t } = status;
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
    tokenNotice: t ? { kind: t.kind, since: t.since, message: t.message, offer: t.offer } : null,
    ownerSession: status.ownerSession,
    firmware: {
      state: f.state,
      channel: f.channel,
      currentVersion: f.currentVersion,
      available: f.available,
      staged: f.staged,
      lastCheckedAt: f.lastCheckedAt,
      message: f.message,
      installAllowed: f.installAllowed,
      installer: f.installer,
    },
  };
}

export interface PlatformFeed {
  /** Raises a notify envelope on every dashboard: an event receipt and a `notify` frame. */
  notify(notice: PlatformNotice): void;
  /** Stops following the port's status. */
  close(): void;
}

/** Follows the port (when there is one) and broadcasts through the features' hub. */
export function createPlatformFeed(deps: {
  port: PlatformPort | undefined;
  emit: (event: EventInput) => void;
  broadcast: (frame: object) => void;
}): PlatformFeed {
  const unsubscribe =
    deps.port?.onChange((status) =>
      deps.broadcast({ type: 'platform', ...platformView(status) } satisfies PlatformFrame),
    ) ?? (() => {});
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
      deps.broadcast({ type: 'notify', title, body, tag, url } satisfies NotifyFrame);
    },
    close: unsubscribe,
  };
}
