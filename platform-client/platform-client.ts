/**
 * createPlatformClient: the robot as a device of the hosted platform (issue 10). It keeps the
 * identity, runs the heartbeat, relay and firmware loops, and exposes a status snapshot, a
 * change feed, the validated device routes and the use_device tool. What an envelope turns
 * into and which agent runs a turn are injected (ARCHITECTURE §2).
 */
import { join } from 'node:path';
import { createDeviceApi } from './device-api.ts';
import { createDeviceRoutes, type DeviceRoutes } from './device-routes.ts';
import { createDeviceRuntime, type DeviceRuntime, type PlatformTiming } from './device-runtime.ts';
import { createDeviceWithSession, proveIdentity, type EnrolFailure, type SessionEnrolInput } from './enrolment.ts';
import type { FleetTurn, FleetTurnResult, PlatformNotification } from './envelopes.ts';
import type { FirmwareUpdater } from './firmware/firmware-poller.ts';
import { checkEnrolInput, createIdentityStore, type DeviceIdentity, type EnrolInput, type IdentityRefusal } from './identity.ts';
import { CHANNEL_PATTERN } from './limits.ts';
import { createPlatformHttp } from './platform-http.ts';
import { createRealScheduler } from './scheduler.ts';
import type { SecretStore } from './secret-store.ts';
import { createSessionClient } from './session-client.ts';
import { createStatusStore, type PlatformStatus } from './status.ts';
import { createStrikePolicy } from './strikes.ts';
import type { FetchLike, Outcome, PlatformLog, Scheduler } from './types.ts';
import { createUseDeviceTool, type ToolDefinition } from './use-device-tool.ts';

/** What the console injects. */
export interface PlatformClientDeps {
  secrets: SecretStore;
  /** The console's data dir; firmware bundles are staged under `<dataDir>/firmware`. */
  dataDir: string;
  log: PlatformLog;
  /** ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN, read by the console; wins over the stored identity. */
  envIdentity?: EnrolInput | null;
  /** Verbs this robot actually implements, re-read before every heartbeat. */
  capabilities: () => readonly string[];
  /** The cockpit's LAN URL; announced only when it is http on a private IPv4 address. */
  lanUrl?: () => string | null;
  /** Runs one fleet turn on the robot's agent, without fleet tools. */
  runFleetTurn: (turn: FleetTurn) => Promise<FleetTurnResult>;
  /** Raises a notification for a notify envelope. */
  notify: (notification: PlatformNotification) => void | Promise<void>;
  /** Firmware updates; without it the pointer is not polled. */
  firmware?: { updater: FirmwareUpdater; channel?: string };
  /** The owner's session or command-line token, for use_device; null when none is configured. */
  ownerToken?: () => Promise<string | null>;
  scheduler?: Scheduler;
  fetch?: FetchLike;
  requestTimeoutMs?: number;
  timing?: PlatformTiming;
}

/** The platform client the console wires. */
export interface PlatformClient {
  /** Loads the identity (environment first, then the stored one) and connects if enrolled. */
  start(): Promise<Outcome<PlatformStatus, IdentityRefusal>>;
  status(): PlatformStatus;
  onChange(listener: (status: PlatformStatus) => void): () => void;
  /** Enrols with pasted values: checked, proved with a heartbeat, stored, connected. */
  enrol(input: EnrolInput): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /** Creates the device with the owner's session token (POST /api/devices), then enrols it. */
  enrolWithSession(input: SessionEnrolInput): Promise<Outcome<PlatformStatus, EnrolFailure>>;
  /** Resumes the loops after disconnect(). */
  connect(): void;
  /** Stops the loops and keeps the identity. */
  disconnect(): Promise<void>;
  /** Stops the loops and deletes the stored identity. */
  forget(): Promise<void>;
  setFirmwareChannel(channel: string): Outcome<void, { kind: 'bad_request'; message: string }>;
  /** task-result, event, transcript and media, checked against the documented limits. */
  readonly routes: DeviceRoutes;
  readonly useDeviceTool: ToolDefinition;
}

/** Creates the platform client; nothing touches the network until start() or enrol(). */
export function createPlatformClient(deps: PlatformClientDeps): PlatformClient {
  const scheduler = deps.scheduler ?? createRealScheduler();
  const lanUrl = deps.lanUrl ?? (() => null);
  let channel = deps.firmware?.channel ?? 'stable';
  let identity: DeviceIdentity | null = null;
  const identities = createIdentityStore(deps.secrets, deps.log);
  const status = createStatusStore(scheduler.now, channel, deps.log);
  const strikes = createStrikePolicy();
  const http = createPlatformHttp({ baseUrl: () => identity?.platformUrl ?? '', fetch: deps.fetch, timeoutMs: deps.requestTimeoutMs });
  // The transport reports every outcome to the loops (strikes, halts); `loops` exists by the first call.
  const api = createDeviceApi({ http, identity: () => identity, onOutcome: (path, outcome) => loops.onOutcome(path, outcome) });
  const routes = createDeviceRoutes(api);
  const loops: DeviceRuntime = createDeviceRuntime({
    api, routes, http, status, strikes, scheduler, log: deps.log,
    capabilities: deps.capabilities, lanUrl, runFleetTurn: deps.runFleetTurn, notify: deps.notify,
    firmware: deps.firmware ? { updater: deps.firmware.updater, root: join(deps.dataDir, 'firmware'), channel: () => channel } : null,
    timing: deps.timing ?? {},
  });
  if (deps.firmware) status.updateFirmware({ state: 'idle', currentVersion: deps.firmware.updater.currentVersion() });

  const adopt = (next: DeviceIdentity | null, source: PlatformStatus['identitySource']): void => {
    identity = next;
    strikes.clear();
    status.update({ enrolled: next !== null, identitySource: next ? source : null, platformUrl: next?.platformUrl ?? null, deviceId: next?.deviceId ?? null, halted: null, lastError: null });
  };

  async function enrolProved(input: unknown): Promise<Outcome<PlatformStatus, EnrolFailure>> {
    const proved = await proveIdentity(input, { fetch: deps.fetch, timeoutMs: deps.requestTimeoutMs, capabilities: deps.capabilities(), lanUrl: lanUrl() });
    if (!proved.ok) return proved;
    try {
      await identities.save(proved.value.identity);
    } catch (error) {
      deps.log.error('could not store the platform identity', { error: String(error) });
      return { ok: false, failure: { kind: 'storage', message: 'the device token could not be stored' } };
    }
    await loops.stop();
    adopt(proved.value.identity, 'stored');
    if (proved.value.verified) status.update({ lastHeartbeatAt: scheduler.now(), unread: proved.value.unread });
    deps.log.info('enrolled on the platform', { platformUrl: proved.value.identity.platformUrl, deviceId: proved.value.identity.deviceId, verified: proved.value.verified });
    loops.start();
    return { ok: true, value: status.snapshot(scheduler.now()) };
  }

  return {
    async start() {
      if (deps.envIdentity) {
        const env = checkEnrolInput(deps.envIdentity);
        if (!env.ok) return { ok: false, failure: { kind: 'bad_request', message: `ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN: ${env.failure.message}` } };
        adopt(env.value, 'env');
      } else {
        const stored = await identities.load();
        if (!stored.ok) status.update({ lastError: { kind: 'bad_request', message: stored.failure.message, at: scheduler.now() } });
        else adopt(stored.value, 'stored');
      }
      if (identity) loops.start();
      return { ok: true, value: status.snapshot(scheduler.now()) };
    },
    status: () => status.snapshot(scheduler.now()),
    onChange: (listener) => status.subscribe(listener),
    enrol: (input) => enrolProved(input),
    async enrolWithSession(input) {
      const created = await createDeviceWithSession(input, deps.fetch, deps.requestTimeoutMs);
      return created.ok ? enrolProved(created.value) : created;
    },
    connect() {
      if (identity && !status.snapshot(scheduler.now()).connected) loops.start();
    },
    disconnect: () => loops.stop(),
    async forget() {
      await loops.stop();
      await identities.forget();
      adopt(null, null);
      status.update({ lastHeartbeatAt: null, unread: null });
    },
    setFirmwareChannel(next) {
      if (!CHANNEL_PATTERN.test(next)) return { ok: false, failure: { kind: 'bad_request', message: 'a channel is 1–32 of a-z, 0-9, _ and -, starting with a letter or digit' } };
      channel = next;
      status.updateFirmware({ channel: next, available: null, message: null });
      loops.checkFirmwareSoon();
      return { ok: true, value: undefined };
    },
    routes,
    useDeviceTool: createUseDeviceTool({
      scheduler,
      selfDeviceId: () => identity?.deviceId ?? null,
      async session() {
        const token = identity ? await deps.ownerToken?.() : null;
        return identity && token ? createSessionClient(http, token) : null;
      },
    }),
  };
}
