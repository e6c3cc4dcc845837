/**
 * The platform client's internals: its parts (Core) and the operations on them that are more
 * than a line: loading the identity and the operator's choices, enrolling. Split from
 * platform-client.ts so the public shape stays readable on its own.
 */
import { join } from 'node:path';
import { createDeviceApi } from './device-api.ts';
import { createDeviceRoutes, type DeviceRoutes } from './device-routes.ts';
import { createDeviceRuntime, type DeviceRuntime } from './device-runtime.ts';
import { proveIdentity, type EnrolFailure } from './enrolment.ts';
import {
  checkEnrolInput,
  createIdentityStore,
  type DeviceIdentity,
  type IdentityRefusal,
  type IdentityStore,
} from './identity.ts';
import { createFirmwarePrefsStore, type FirmwarePrefsStore } from './firmware/firmware-prefs.ts';
import { createOwnerSession, type OwnerSession } from './owner-session.ts';
import type { PlatformClientDeps } from './client-deps.ts';
import { createPlatformHttp, type PlatformHttp } from './platform-http.ts';
import { createRealScheduler } from './scheduler.ts';
import { createStatusStore, type PlatformStatus, type StatusStore } from './status.ts';
import { createSessionClient } from './session-client.ts';
import { createStrikePolicy, type StrikePolicy } from './strikes.ts';
import { createTokenWatch, type TokenWatch } from './token-watch.ts';
import type { Outcome, Scheduler } from './types.ts';
import { checkPlatformUrl } from './url-policy.ts';

/** The client's parts, shared by the operations below. */
export interface Core {
  deps: PlatformClientDeps;
  scheduler: Scheduler;
  lanUrl: () => string | null;
  identities: IdentityStore;
  status: StatusStore;
  strikes: StrikePolicy;
  loops: DeviceRuntime;
  /** The owner's session token for use_device, bound to the platform it was proved on. */
  owner: OwnerSession;
  /** Tells the owner when the platform refuses the device token. */
  tokenWatch: TokenWatch;
  /** The operator's firmware channel and install consent, kept across restarts. */
  prefs: FirmwarePrefsStore;
  /** The identity in use; the token never leaves this holder except in request bodies. */
  current: { identity: DeviceIdentity | null; channel: string; installAllowed: boolean };
}

/**
 * Makes `next` the identity in use (or none) and resets strikes, halt, error and presence: the
 * last heartbeat and unread count were the previous identity's, so `online` (status.ts) waits
 * for the new one's first answer.
 */
export function adopt(core: Core, next: DeviceIdentity | null, source: PlatformStatus['identitySource']): void {
  core.current.identity = next;
  core.strikes.clear();
  core.status.update({
    enrolled: next !== null,
    identitySource: next ? source : null,
    platformUrl: next?.platformUrl ?? null,
    deviceId: next?.deviceId ?? null,
    lastHeartbeatAt: null,
    unread: null,
    halted: null,
    tokenNotice: null,
    lastError: null,
    ownerSession: core.owner.sourceFor(next?.platformUrl ?? null),
  });
}

/** Reads what the operator chose last time: the owner session and the firmware preferences. */
async function loadChoices(core: Core): Promise<void> {
  await core.owner.load();
  const prefs = await core.prefs.load();
  core.current.channel = prefs.channel;
  core.current.installAllowed = prefs.installAllowed;
  core.status.updateFirmware({ channel: prefs.channel, installAllowed: prefs.installAllowed });
}

/** The environment identity wins over the stored one (docs/architecture.md, "Configuration and persistence": environment before settings). */
export async function loadIdentity(core: Core): Promise<Outcome<PlatformStatus, IdentityRefusal>> {
  const { deps, status, scheduler } = core;
  await loadChoices(core);
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

/** Proves, stores and connects an enrolment; the loops restart on the new identity. */
export async function enrolProved(core: Core, input: unknown): Promise<Outcome<PlatformStatus, EnrolFailure>> {
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

/** ROBOT_PLATFORM_SESSION_TOKEN, bound to the environment's own platform URL. */
function envOwnerSession(deps: PlatformClientDeps): { platformUrl: string; token: string } | null {
  if (!deps.envIdentity || !deps.envOwnerSession) return null;
  const url = checkPlatformUrl(deps.envIdentity.platformUrl);
  return url.ok ? { platformUrl: url.value, token: deps.envOwnerSession } : null;
}

/** Builds the parts: status, strikes, HTTP, device transport and routes, and the loops. */
export function buildCore(deps: PlatformClientDeps): Core & { http: PlatformHttp; routes: DeviceRoutes } {
  const scheduler = deps.scheduler ?? createRealScheduler();
  const defaults = { channel: deps.firmware?.channel ?? 'stable', installAllowed: false };
  const current: Core['current'] = { identity: null, ...defaults };
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
  const firmwareRoot = join(deps.dataDir, 'firmware');
  const lanUrl = deps.lanUrl ?? (() => null);
  const owner = createOwnerSession(deps.secrets, envOwnerSession(deps), deps.log);
  const tokenWatch = createTokenWatch({
    deviceId: () => current.identity?.deviceId ?? null,
    async listDevices() {
      const token = owner.tokenFor(current.identity?.platformUrl ?? null);
      return token ? createSessionClient(http, token).listDevices() : null;
    },
    now: scheduler.now,
    setNotice: (tokenNotice) => status.update({ tokenNotice }),
    notify: deps.notify,
    halt: (reason, message) => loops.haltNow(reason, message),
    log: deps.log,
  });
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
      ? {
          updater: deps.firmware.updater,
          root: firmwareRoot,
          channel: () => current.channel,
          installAllowed: () => current.installAllowed,
        }
      : null,
    timing: deps.timing ?? {},
    tokenWatch,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  if (deps.firmware)
    status.updateFirmware({
      state: 'idle',
      currentVersion: deps.firmware.updater.currentVersion(),
      installer: deps.firmware.updater.installer(),
    });
  return {
    deps,
    scheduler,
    lanUrl,
    identities: createIdentityStore(deps.secrets, deps.log),
    owner,
    tokenWatch,
    prefs: createFirmwarePrefsStore(firmwareRoot, defaults, deps.log),
    status,
    strikes,
    loops,
    current,
    http,
    routes,
  };
}
