/**
 * The running device: heartbeat, relay and firmware loops, wired to the strike policy and the
 * status (issue 10, items 2–4 and 7). A 401 is a strike; 3 or more consecutive strikes that
 * span 5 minutes halt the fast loops (heartbeat every 5 minutes, no polling, no firmware) and
 * the status asks the owner to re-enrol. Any success clears the count and resumes the loops.
 */
import type { DeviceApi } from './device-api.ts';
import type { DeviceRoutes } from './device-routes.ts';
import type { FleetTurn, FleetTurnResult, PlatformNotification } from './envelopes.ts';
import { createFirmwarePoller, type FirmwareUpdater } from './firmware/firmware-poller.ts';
import { createHeartbeatTick } from './heartbeat.ts';
import { createLoop, type Loop } from './loop.ts';
import type { PlatformAnswer, PlatformHttp } from './platform-http.ts';
import { createRelayHandler } from './relay-handler.ts';
import { createRelayPoller } from './relay-poller.ts';
import type { StatusStore } from './status.ts';
import type { StrikePolicy } from './strikes.ts';
import type { Outcome, PlatformLog, Scheduler } from './types.ts';

/** Cadences and budgets; each defaults to the documented figure (limits.ts). */
export interface PlatformTiming {
  heartbeatMs?: number;
  pollMs?: number;
  firmwarePollMs?: number;
  firmwareApplyRetryMs?: number;
  /** Budget of one fleet turn before an error reply is sent. */
  turnTimeoutMs?: number;
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
  notify: (notification: PlatformNotification) => void | Promise<void>;
  firmware: { updater: FirmwareUpdater; root: string; channel: () => string } | null;
  timing: PlatformTiming;
}

/** The loops as one unit. */
export interface DeviceRuntime {
  start(): void;
  /** Stops the loops and waits until every claimed envelope has been answered. */
  stop(): Promise<void>;
  /** Reads the firmware pointer at the next opportunity (after a channel change). */
  checkFirmwareSoon(): void;
  /** The device transport's outcome hook: strikes, halts and the last error. */
  onOutcome(path: string, outcome: Outcome<PlatformAnswer>): void;
}

const HALT_MESSAGE = 'The platform keeps refusing this device’s token (revoked or rotated). Ask the owner to enrol the robot again.';

/** Creates the runtime; nothing runs until start(). */
export function createDeviceRuntime(deps: DeviceRuntimeDeps): DeviceRuntime {
  const { status, strikes, scheduler, log } = deps;
  const halted = () => strikes.state().halted;
  let running = false;

  const heartbeat = createLoop('heartbeat', scheduler, createHeartbeatTick({
    api: deps.api,
    capabilities: deps.capabilities,
    lanUrl: deps.lanUrl,
    halted,
    periodMs: deps.timing.heartbeatMs,
    onBeat(outcome) {
      if (outcome.ok) status.update({ lastHeartbeatAt: scheduler.now(), unread: outcome.value.unread ?? status.snapshot(scheduler.now()).unread });
    },
  }), log);

  const handle = createRelayHandler({
    runFleetTurn: deps.runFleetTurn,
    notify: deps.notify,
    media: deps.routes.media,
    api: deps.api,
    scheduler,
    log,
    turnTimeoutMs: deps.timing.turnTimeoutMs ?? 90_000,
    onHandled: () => status.update({ envelopesHandled: status.snapshot(scheduler.now()).envelopesHandled + 1 }),
  });
  const poller = createRelayPoller({ api: deps.api, handle, log, pollMs: deps.timing.pollMs });
  const relay = createLoop('relay', scheduler, poller.tick, log);

  const firmwarePoller = deps.firmware
    ? createFirmwarePoller({
        api: deps.api,
        http: deps.http,
        updater: deps.firmware.updater,
        root: deps.firmware.root,
        channel: deps.firmware.channel,
        scheduler,
        log,
        report: (patch) => status.updateFirmware(patch),
        pollMs: deps.timing.firmwarePollMs,
        applyRetryMs: deps.timing.firmwareApplyRetryMs,
      })
    : null;
  const firmware: Loop | null = firmwarePoller ? createLoop('firmware', scheduler, firmwarePoller.tick, log) : null;

  const startFast = (): void => {
    relay.start();
    firmware?.start();
  };
  const stopFast = (): void => {
    relay.stop();
    firmware?.stop();
  };

  return {
    start() {
      running = true;
      status.update({ connected: true });
      if (!halted()) startFast();
      heartbeat.start();
    },
    async stop() {
      running = false;
      heartbeat.stop();
      stopFast();
      status.update({ connected: false });
      await poller.drain();
    },
    checkFirmwareSoon() {
      firmwarePoller?.pollSoon();
      firmware?.kick();
    },
    onOutcome(path, outcome) {
      const now = scheduler.now();
      if (outcome.ok) {
        if (strikes.clear()) {
          log.info('platform accepted the token again; resuming', { path });
          status.update({ halted: null });
          if (running) startFast();
        }
        return;
      }
      status.update({ lastError: { kind: outcome.failure.kind, message: `${path}: ${outcome.failure.message}`, at: now } });
      if (outcome.failure.kind !== 'unauthorized' || !strikes.strike(now)) return;
      log.warn('platform refused the token repeatedly; halting the fast loops', { strikes: strikes.state().count });
      stopFast();
      status.update({ halted: { reason: 'token_rejected', since: now, message: HALT_MESSAGE } });
    },
  };
}
