/**
 * The platform client's internals: its parts (Core) and the operations on them that are more
 * than a line: loading the identity, enrolling, changing the firmware channel. Split from
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
import { CHANNEL_PATTERN } from './limits.ts';
import type { PlatformClientDeps } from './platform-client.ts';
import { createPlatformHttp, type PlatformHttp } from './platform-http.ts';
import { createRealScheduler } from './scheduler.ts';
import { createStatusStore, type PlatformStatus, type StatusStore } from './status.ts';
import { createStrikePolicy, type StrikePolicy } from './strikes.ts';
import type { Outcome, Scheduler } from './types.ts';

/** The client's parts, shared by the operations below. */
export interface Core {
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

/** Makes `next` the identity in use (or none) and resets strikes, halt and error. */
export function adopt(core: Core, next: DeviceIdentity | null, source: PlatformStatus['identitySource']): void {
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
export async function loadIdentity(core: Core): Promise<Outcome<PlatformStatus, IdentityRefusal>> {
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

/** Switches the firmware channel and reads its pointer at the next opportunity. */
export function setChannel(core: Core, next: string): Outcome<void, { kind: 'bad_request'; message: string }> {
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

/** Builds the parts: status, strikes, HTTP, device transport and routes, and the loops. */
export function buildCore(deps: PlatformClientDeps): Core & { http: PlatformHttp; routes: DeviceRoutes } {
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
