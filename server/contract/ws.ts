/**
 * Frames sent on the /ws socket of the desktop server, as one closed union (docs/contract.md,
 * "Events"): a dashboard switches on `type` and every frame it can meet is listed here.
 */
import type { AgentLogRow } from './agent.ts';
import type { AppJob, AppLogFrame, AppsOverview } from './apps.ts';
import type { ErrorCode } from './errors.ts';
import type { CameraHealth, Health, HealthSampleFrame } from './health.ts';
import type { DoaStatus, TrackingStatus } from './perception.ts';
import type { PlatformNotice } from './platform-enrol.ts';
import type { PlatformStatusView } from './platform.ts';
import type { RobotState } from './state.ts';
import type { VideoServerMessage } from './video.ts';

export interface StateFrame extends RobotState {
  type: 'state';
}

export interface EventFrame {
  type: 'event';
  id: number;
  time: string;
  /** What happened, e.g. `look`. */
  action: string;
  text: string;
  values?: Record<string, unknown>;
  /** Which kind of credential asked: owner token, passkey session, loopback, or the robot itself. */
  credential: CredentialKind;
}

export type CredentialKind = 'token' | 'passkey' | 'loopback' | 'local-window' | 'system';

/** The health snapshot: on connecting, then once a second. */
export type HealthFrame = Health & { type: 'health' };

/** A row of the agent log, new or updated (rows with the same id replace it). */
export interface AgentLogFrame {
  type: 'agent_log';
  row: AgentLogRow;
}

/** The platform client's status, each time it changes. */
export type PlatformFrame = PlatformStatusView & { type: 'platform' };

/** A notify envelope of the platform, raised on every dashboard. */
export type NotifyFrame = PlatformNotice & { type: 'notify' };

/** Face tracking's status, when it changes. */
export type TrackingFrame = TrackingStatus & { type: 'tracking' };

/** Turning toward a speaker: its status, when it changes. */
export type DoaFrame = DoaStatus & { type: 'doa' };

/** The robot's apps, each time they change. */
export type AppsFrame = AppsOverview & { type: 'apps' };

/** A job of the daemon's app store, as it progresses. */
export type AppJobFrame = AppJob & { type: 'app_job' };

/** The answer to `{type: "app_logs", app, on}`: whether this socket now follows that app's log. */
export interface AppLogsFrame {
  type: 'app_logs';
  app: string;
  on: boolean;
}

/** The answer to `{type: "camera", on}`: whether this socket now gets binary camera frames. */
export interface CameraFeedFrame {
  type: 'camera';
  on: boolean;
  camera: CameraHealth;
}

/** A message of this socket refused (a bad frame, a refused joystick target, no camera). */
export interface ErrorFrame {
  type: 'error';
  code: ErrorCode;
  error: string;
}

/** The answer to `{type: "ping"}`; `time` is the cockpit's clock, epoch ms. */
export interface PongFrame {
  type: 'pong';
  time: number;
}

export type ServerFrame =
  | StateFrame
  | HealthFrame
  | HealthSampleFrame
  | EventFrame
  | AgentLogFrame
  | PlatformFrame
  | NotifyFrame
  | TrackingFrame
  | DoaFrame
  | AppsFrame
  | AppJobFrame
  | AppLogFrame
  | AppLogsFrame
  | CameraFeedFrame
  | ErrorFrame
  | PongFrame
  | VideoServerMessage;
