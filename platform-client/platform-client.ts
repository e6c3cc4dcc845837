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
import {
  checkEnrolInput,
  createIdentityStore,
  type DeviceIdentity,
  type EnrolInput,
  type IdentityRefusal,
  type IdentityStore,
} from './identity.ts';
import { CHANNEL_PATTERN } from './limits.ts';
import { createPlatformHttp, type PlatformHttp } from './platform-http.ts';
import { createRealScheduler } from './scheduler.ts';
import type { SecretStore } from './secret-store.ts';
import { createSessionClient } from './session-client.ts';
import { createStatusStore, type PlatformStatus, type StatusStore } from './status.ts';
import { createStrikePolicy, type StrikePolicy } from './strikes.ts';
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

/** The client's parts, shared by the operations below. */
interface Core {
  deps: PlatformClientDeps;
  scheduler: Scheduler;
  lanUrl: () => string | null;
  identities: IdentityStore;
  status: StatusStore;
  strikes: StrikePolicy;
  loops: DeviceRuntime;
  /** The identity in use; the token never leaves this holder except in request bodies. */
  current: { identity: DeviceIdentity | null; channel: string };
}

function adopt(core: Core, next: DeviceIdentity | null, source: PlatformStatus['identitySource']): void {
  core.current.identity = next;
  core.strikes.clear();
  core.status.update({
    enrolled: next !== null,
    identitySource: next ? source : null,
    platformUrl: next?.platformUrl ?? null,
    deviceId: next?.deviceId ?? null,
    halted: null,
    lastError: null,
  });
}

/** The environment identity wins over the stored one (ARCHITECTURE §4: environment before settings). */
async function loadIdentity(core: Core): Promise<Outcome<PlatformStatus, IdentityRefusal>> {
  const { deps, status, scheduler } = core;
  if (deps.envIdentity) {
    const env = checkEnrolInput(deps.envIdentity);
    if (!env.ok)
      return {
        ok: false,
        failure: {
          kind: 'bad_request',
          message: `ROBOT_PLATFORM_URL / ROBOT_DEVICE_ID / ROBOT_DEVICE_TOKEN: ${env.failure.message}`,
        },
      };
    adopt(core, env.value, 'env');
  } else {
    const stored = await core.identities.load();
    if (stored.ok) adopt(core, stored.value, 'stored');
    else status.update({ lastError: { kind: 'bad_request', message: stored.failure.message, at: scheduler.now() } });
  }
  if (core.current.identity) core.loops.start();
  return { ok: true, value: status.snapshot(scheduler.now()) };
}

async function enrolProved(core: Core, input: unknown): Promise<Outcome<PlatformStatus, EnrolFailure>> {
  const { deps, status, scheduler } = core;
  const proved = await proveIdentity(input, {
    fetch: deps.fetch,
    timeoutMs: deps.requestTimeoutMs,
    capabilities: deps.capabilities(),
    lanUrl: core.lanUrl(),
  });
  if (!proved.ok) return proved;
  const { identity, verified, unread } = proved.value;
  try {
    await core.identities.save(identity);
  } catch (error) {
    deps.log.error('could not store the platform identity', { error: String(error) });
    return { ok: false, failure: { kind: 'storage', message: 'the device token could not be stored' } };
  }
  await core.loops.stop();
  adopt(core, identity, 'stored');
  if (verified) status.update({ lastHeartbeatAt: scheduler.now(), unread });
  deps.log.info('enrolled on the platform', {
    platformUrl: identity.platformUrl,
    deviceId: identity.deviceId,
    verified,
  });
  core.loops.start();
  return { ok: true, value: status.snapshot(scheduler.now()) };
}

function setChannel(core: Core, next: string): Outcome<void, { kind: 'bad_request'; message: string }> {
  if (!CHANNEL_PATTERN.test(next))
    return {
      ok: false,
      failure: {
        kind: 'bad_request',
        message: 'a channel is 1–32 of a-z, 0-9, _ and -, starting with a letter or digit',
      },
    };
  core.current.channel = next;
  core.status.updateFirmware({ channel: next, available: null, message: null });
  core.loops.checkFirmwareSoon();
  return { ok: true, value: undefined };
}

function buildCore(deps: PlatformClientDeps): Core & { http: PlatformHttp; routes: DeviceRoutes } {
  const scheduler = deps.scheduler ?? createRealScheduler();
  const current: Core['current'] = { identity: null, channel: deps.firmware?.channel ?? 'stable' };
  const status = createStatusStore(scheduler.now, current.channel, deps.log);
  const strikes = createStrikePolicy();
  const http = createPlatformHttp({
    baseUrl: () => current.identity?.platformUrl ?? '',
    fetch: deps.fetch,
    timeoutMs: deps.requestTimeoutMs,
  });
  // The transport reports every outcome to the loops (strikes, halts); `loops` exists by the first call.
  const api = createDeviceApi({
    http,
    identity: () => current.identity,
    onOutcome: (path, outcome) => loops.onOutcome(path, outcome),
  });
  const routes = createDeviceRoutes(api);
  const lanUrl = deps.lanUrl ?? (() => null);
  const loops = createDeviceRuntime({
    api,
    routes,
    http,
    status,
    strikes,
    scheduler,
    lanUrl,
    log: deps.log,
    capabilities: deps.capabilities,
    runFleetTurn: deps.runFleetTurn,
    notify: deps.notify,
    firmware: deps.firmware
      ? { updater: deps.firmware.updater, root: join(deps.dataDir, 'firmware'), channel: () => current.channel }
      : null,
    timing: deps.timing ?? {},
  });
  if (deps.firmware) status.updateFirmware({ state: 'idle', currentVersion: deps.firmware.updater.currentVersion() });
  return {
    deps,
    scheduler,
    lanUrl,
    identities: createIdentityStore(deps.secrets, deps.log),
    status,
    strikes,
    loops,
    current,
    http,
    routes,
  };
}

/** Creates the platform client; nothing touches the network until start() or enrol(). */
export function createPlatformClient(deps: PlatformClientDeps): PlatformClient {
  const core = buildCore(deps);
  const { status, scheduler, loops, current } = core;
  return {
    start: () => loadIdentity(core),
    status: () => status.snapshot(scheduler.now()),
    onChange: (listener) => status.subscribe(listener),
    enrol: (input) => enrolProved(core, input),
    async enrolWithSession(input) {
      const created = await createDeviceWithSession(input, deps.fetch, deps.requestTimeoutMs);
      return created.ok ? enrolProved(core, created.value) : created;
    },
    connect() {
      if (current.identity && !status.snapshot(scheduler.now()).connected) loops.start();
    },
    disconnect: () => loops.stop(),
    async forget() {
      await loops.stop();
      await core.identities.forget();
      adopt(core, null, null);
      status.update({ lastHeartbeatAt: null, unread: null });
    },
    setFirmwareChannel: (next) => setChannel(core, next),
    routes: core.routes,
    useDeviceTool: createUseDeviceTool({
      scheduler,
      selfDeviceId: () => current.identity?.deviceId ?? null,
      async session() {
        const token = current.identity ? await deps.ownerToken?.() : null;
        return current.identity && token ? createSessionClient(core.http, token) : null;
      },
    }),
  };
}
