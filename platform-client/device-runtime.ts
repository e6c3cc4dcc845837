/**
 * The running device: heartbeat, relay and firmware loops, wired to the strike policy and the
 * status. A 401 is a strike; 3 or more consecutive strikes that
 * span 5 minutes halt the fast loops (heartbeat every 5 minutes, no polling, no firmware) and
 * the status asks the owner to re-enrol. Any success clears the count and resumes the loops.
 */
import type { DeviceApi } from './device-api.ts';
import type { DeviceRoutes } from './device-routes.ts';
import type { PlatformNotice } from '../server/contract/index.ts';
import type { FleetTurn, FleetTurnResult } from './envelopes.ts';
import { createFirmwarePoller, type FirmwarePoller, type FirmwareUpdater } from './firmware/firmware-poller.ts';
import { createHeartbeatTick } from './heartbeat.ts';
import { CADENCE, PATHS } from './limits.ts';
import { createLoop, type Loop } from './loop.ts';
import type { PlatformAnswer, PlatformHttp } from './platform-http.ts';
import { createRelayDecliner, createRelayHandler, type RelayHandlerDeps } from './relay-handler.ts';
import { createRelayPoller, type RelayPoller } from './relay-poller.ts';
import type { StatusStore } from './status.ts';
import type { StrikePolicy } from './strikes.ts';
import type { TokenWatch } from './token-watch.ts';
import type { FetchLike, Outcome, PlatformLog, Scheduler } from './types.ts';

/** Cadences and budgets; each defaults to the documented figure (limits.ts). */
export interface PlatformTiming {
  heartbeatMs?: number;
  pollMs?: number;
  firmwarePollMs?: number;
  firmwareApplyRetryMs?: number;
  /** Budget of one fleet turn before an error reply is sent. */
  turnTimeoutMs?: number;
  /** When a running fleet turn is answered "still working" and goes on as a task result. */
  fleetAckMs?: number;
}

/** What the runtime needs. */
export interface DeviceRuntimeDeps {
  api: DeviceApi;
  routes: DeviceRoutes;
  http: PlatformHttp;
  status: StatusStore;
  strikes: StrikePolicy;
  scheduler: Scheduler;
  log: PlatformLog;
  capabilities: () => readonly string[];
  lanUrl: () => string | null;
  runFleetTurn: (turn: FleetTurn) => Promise<FleetTurnResult>;
  notify: (notification: PlatformNotice) => void | Promise<void>;
  firmware: {
    updater: FirmwareUpdater;
    root: string;
    channel: () => string;
    installAllowed: () => boolean;
  } | null;
  timing: PlatformTiming;
  /** The fetch that streams firmware files to disk. */
  fetch?: FetchLike;
  /** Tells the owner at the first refused token (token-watch.ts). */
  tokenWatch: Pick<TokenWatch, 'refused' | 'accepted'>;
}

/** The loops as one unit. */
export interface DeviceRuntime {
  start(): void;
  /** Stops the loops and waits until every claimed envelope has been answered. */
  stop(): Promise<void>;
  /** Reads the firmware pointer at the next opportunity (after a channel change). */
  checkFirmwareSoon(): void;
  /** Runs the firmware loop now, without reading the pointer again (after a consent change). */
  retryFirmwareInstall(): void;
  /** The device transport's outcome hook: strikes, halts and the last error. */
  onOutcome(path: string, outcome: Outcome<PlatformAnswer>): void;
  /** Halts the fast loops now: the token is known dead (rotated or the device removed). */
  haltNow(reason: 'token_rotated' | 'device_removed', message: string): void;
}

const HALT_MESSAGE =
  'The platform keeps refusing this device’s token (revoked or rotated). Ask the owner to enrol the robot again.';

function heartbeatLoop(deps: DeviceRuntimeDeps): Loop {
  const { status, scheduler } = deps;
  const tick = createHeartbeatTick({
    api: deps.api,
    capabilities: deps.capabilities,
    lanUrl: deps.lanUrl,
    halted: () => deps.strikes.state().halted,
    periodMs: deps.timing.heartbeatMs,
    onBeat(outcome) {
      if (!outcome.ok) return;
      // The platform leaves unread out unless it computed it; keep the last known value (docs/platform.md, "Devices").
      const unread = outcome.value.unread ?? status.snapshot(scheduler.now()).unread;
      status.update({ lastHeartbeatAt: scheduler.now(), unread, lastError: null });
    },
  });
  return createLoop('heartbeat', scheduler, tick, deps.log);
}

function relayParts(deps: DeviceRuntimeDeps): { loop: Loop; poller: RelayPoller } {
  const { status, scheduler, log } = deps;
  const handlerDeps: RelayHandlerDeps = {
    runFleetTurn: deps.runFleetTurn,
    notify: deps.notify,
    media: deps.routes.media,
    api: deps.api,
    scheduler,
    log,
    turnTimeoutMs: deps.timing.turnTimeoutMs ?? CADENCE.fleetTurnMs,
    ackMs: deps.timing.fleetAckMs ?? CADENCE.fleetAckMs,
    taskResult: deps.routes.taskResult,
    onHandled: () => status.update({ envelopesHandled: status.snapshot(scheduler.now()).envelopesHandled + 1 }),
  };
  const poller = createRelayPoller({
    api: deps.api,
    handle: createRelayHandler(handlerDeps),
    decline: createRelayDecliner(handlerDeps),
    // A poll still out at stop() comes back after the loop stopped: what it claimed is declined.
    live: () => loop.running(),
    log,
    pollMs: deps.timing.pollMs,
  });
  const loop = createLoop('relay', scheduler, poller.tick, log);
  return { poller, loop };
}

function firmwareParts(deps: DeviceRuntimeDeps): { loop: Loop; poller: FirmwarePoller } | null {
  if (!deps.firmware) return null;
  const poller = createFirmwarePoller({
    api: deps.api,
    http: deps.http,
    updater: deps.firmware.updater,
    installAllowed: deps.firmware.installAllowed,
    root: deps.firmware.root,
    channel: deps.firmware.channel,
    scheduler: deps.scheduler,
    log: deps.log,
    report: (patch) => deps.status.updateFirmware(patch),
    pollMs: deps.timing.firmwarePollMs,
    applyRetryMs: deps.timing.firmwareApplyRetryMs,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    live: () => loop.running(),
  });
  const loop = createLoop('firmware', deps.scheduler, poller.tick, deps.log);
  return { poller, loop };
}

/** The relay and firmware loops, which a halt stops and a success resumes. */
interface FastLoops {
  start(): void;
  stop(): void;
  /**
   * Stops them for a refused token, and moves the heartbeat already planned at the 30 s pace to
   * the halted one: it would otherwise still go out once more with the refused token.
   */
  halt(): void;
  /** Whether the runtime is started (a late success after stop() must not restart anything). */
  active: boolean;
}

/** Routes a platform may not offer: their 404 says so and is no fault of the robot (firmware-poller.ts). */
const OPTIONAL_ROUTES: ReadonlySet<string> = new Set([PATHS.firmware]);

/** Strikes, halts and the last error, from one device request's outcome. */
function reactToOutcome(
  deps: DeviceRuntimeDeps,
  fast: FastLoops,
  path: string,
  outcome: Outcome<PlatformAnswer>,
): void {
  const { status, strikes, log } = deps;
  const now = deps.scheduler.now();
  if (outcome.ok) {
    deps.tokenWatch.accepted();
    if (!strikes.clear()) return;
    log.info('platform accepted the token again; resuming', { path });
    status.update({ halted: null });
    if (fast.active) fast.start();
    return;
  }
  if (outcome.failure.kind === 'not_found' && OPTIONAL_ROUTES.has(path)) return;
  status.update({ lastError: { kind: outcome.failure.kind, message: `${path}: ${outcome.failure.message}`, at: now } });
  if (outcome.failure.kind !== 'unauthorized') return;
  deps.tokenWatch.refused();
  if (!strikes.strike(now)) return;
  log.warn('platform refused the token repeatedly; halting the fast loops', { strikes: strikes.state().count });
  fast.halt();
  status.update({ halted: { reason: 'token_rejected', since: now, message: HALT_MESSAGE } });
}

/** Creates the runtime; nothing runs until start(). */
export function createDeviceRuntime(deps: DeviceRuntimeDeps): DeviceRuntime {
  const heartbeat = heartbeatLoop(deps);
  const relay = relayParts(deps);
  const firmware = firmwareParts(deps);
  const fast: FastLoops = {
    active: false,
    start() {
      relay.loop.start();
      firmware?.loop.start();
    },
    stop() {
      relay.loop.stop();
      firmware?.loop.stop();
    },
    halt() {
      this.stop();
      if (this.active) heartbeat.start(CADENCE.haltedHeartbeatMs);
    },
  };
  return {
    start() {
      fast.active = true;
      deps.status.update({ connected: true });
      if (!deps.strikes.state().halted) fast.start();
      heartbeat.start();
    },
    async stop() {
      fast.active = false;
      heartbeat.stop();
      fast.stop();
      deps.status.update({ connected: false });
      await relay.poller.drain();
    },
    checkFirmwareSoon() {
      firmware?.poller.pollSoon();
      firmware?.loop.kick();
    },
    retryFirmwareInstall: () => firmware?.loop.kick(),
    onOutcome: (path, outcome) => reactToOutcome(deps, fast, path, outcome),
    haltNow(reason, message) {
      const now = deps.scheduler.now();
      deps.strikes.haltNow(now);
      fast.halt();
      deps.status.update({ halted: { reason, since: now, message } });
    },
  };
}
