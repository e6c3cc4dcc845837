/**
 * What the console gives the platform client: storage, logging, the robot's capabilities and the
 * agent and notification hooks. Declared apart from platform-client.ts so the client's internals
 * (client-core.ts) can name it without importing the public entry back.
 */
import type { PlatformEnrolInput, PlatformNotice } from '../server/contract/index.ts';
import type { PlatformTiming } from './device-runtime.ts';
import type { FleetTurn, FleetTurnResult } from './envelopes.ts';
import type { FirmwareUpdater } from './firmware/firmware-poller.ts';
import type { SecretStore } from './secret-store.ts';
import type { FetchLike, PlatformLog, Scheduler } from './types.ts';

export interface PlatformClientDeps {
  secrets: SecretStore;
  /** The console's data dir; firmware bundles are staged under `<dataDir>/firmware`. */
  dataDir: string;
  log: PlatformLog;
  /** ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN, read by the console; wins over the stored identity. */
  envIdentity?: PlatformEnrolInput | null;
  /** Verbs this robot actually implements, re-read before every heartbeat. */
  capabilities: () => readonly string[];
  /** The cockpit's LAN URL; announced only when it is http on a private IPv4 address. */
  lanUrl?: () => string | null;
  /** Runs one fleet turn on the robot's agent, without fleet tools. */
  runFleetTurn: (turn: FleetTurn) => Promise<FleetTurnResult>;
  /** Raises a notification for a notify envelope. */
  notify: (notification: PlatformNotice) => void | Promise<void>;
  /** Firmware updates; without it the pointer is not polled. */
  firmware?: { updater: FirmwareUpdater; channel?: string };
  /**
   * ROBOT_PLATFORM_SESSION_TOKEN: the owner's session or command-line token for use_device,
   * used only with envIdentity's platform. Otherwise the operator stores one (setOwnerSession).
   */
  envOwnerSession?: string | null;
  scheduler?: Scheduler;
  fetch?: FetchLike;
  requestTimeoutMs?: number;
  timing?: PlatformTiming;
}
