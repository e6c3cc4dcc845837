/**
 * The firmware pointer loop: PUT /api/firmware/manifest {channel} hourly
 * by default; a newer bundle is verified and staged, then installed through the injected
 * updater only while the robot is idle and the operator allows it (a persisted consent, off by
 * default). A downgrade is refused unless the pointer is forced (the platform's own rule,
 * docs/platform.md, "Devices").
 */
import type { DeviceApi } from '../device-api.ts';
import { CADENCE, FIRMWARE, LIMITS, PATHS } from '../limits.ts';
import type { LoopTick } from '../loop.ts';
import type { PlatformHttp } from '../platform-http.ts';
import type { FirmwareStatus } from '../status.ts';
import type { FetchLike, PlatformLog, Scheduler } from '../types.ts';
import { parsePointer, stageBundle, type FirmwarePointer, type StagedBundle } from './bundle.ts';
import { compareVersions } from './version.ts';

/** The console's side of an update. */
export interface FirmwareUpdater {
  currentVersion(): string;
  /** True when no move, turn or speech is in progress. */
  isIdle(): boolean;
  /** How this console installs a bundle, for the status (e.g. `hook /usr/local/bin/x`); null when it cannot. */
  installer(): string | null;
  /** Installs a staged bundle; `message` tells the operator what happens next (e.g. a restart). */
  apply(bundle: StagedBundle): Promise<{ ok: true; message?: string } | { ok: false; message: string }>;
}

/** Dependencies of the firmware loop. */
export interface FirmwarePollerDeps {
  api: DeviceApi;
  http: PlatformHttp;
  updater: FirmwareUpdater;
  /** The operator's consent to install a staged bundle (off by default). */
  installAllowed: () => boolean;
  /** Folder for staged bundles, inside the data dir. */
  root: string;
  channel: () => string;
  scheduler: Scheduler;
  log: PlatformLog;
  report: (patch: Partial<FirmwareStatus>) => void;
  pollMs?: number;
  applyRetryMs?: number;
  /** The fetch that streams bundle files to disk. */
  fetch?: FetchLike;
  /**
   * Whether the firmware loop still runs. A tick still out when the link was switched off (or the
   * console began to stop) may finish its download and stage the bundle, but installs nothing.
   */
  live: () => boolean;
}

/** The firmware loop's tick and a way to make its next tick read the pointer again. */
export interface FirmwarePoller {
  tick: LoopTick;
  /** Forgets when the pointer was last read (a channel change), so the next tick polls. */
  pollSoon(): void;
}

interface PollerState {
  staged: StagedBundle | null;
  lastPollAt: number | null;
  /** `version:sha256` of a bundle that failed verification; not fetched again until the pointer changes. */
  rejected: string | null;
  /** Transient failures in a row (a 503 `retryable`, a dropped download): the next poll comes sooner. */
  failures: number;
  /**
   * What the last install said ("installed 1.2.0; restart the console to run it"). An install
   * takes effect at the next start, so it stays the news through later polls until then.
   */
  applied: string | null;
}

/** What a poll that finds nothing new says: up to date, unless an install still waits for a restart. */
function settled(state: PollerState): Partial<FirmwareStatus> {
  return state.applied ? { state: 'applied', message: state.applied } : { state: 'up_to_date', message: null };
}

type Deps = FirmwarePollerDeps & { pollMs: number; applyRetryMs: number };

/** Why a staged bundle cannot be installed right now, or null when it can. */
function waitingFor(deps: Deps): string | null {
  if (deps.updater.installer() === null) return 'staged; this console has no installer for it';
  if (!deps.installAllowed()) return 'staged; installing waits for the operator to allow it';
  if (!deps.updater.isIdle()) return 'staged; waiting for the robot to be idle';
  return null;
}

/** Installs the staged bundle when nothing stands in the way; returns the next delay. */
async function tryApply(deps: Deps, state: PollerState): Promise<number> {
  const bundle = state.staged;
  if (!bundle) return deps.pollMs;
  const waiting = waitingFor(deps);
  if (waiting) {
    deps.report({ state: 'staged', staged: bundle.version, message: waiting });
    return deps.applyRetryMs;
  }
  deps.report({ state: 'applying', message: null });
  state.staged = null;
  const out = await deps.updater.apply(bundle).catch((error: unknown) => ({
    ok: false as const,
    message: error instanceof Error ? error.message : String(error),
  }));
  if (out.ok) {
    state.applied = out.message ?? `installed ${bundle.version}`;
    deps.report({ state: 'applied', staged: null, currentVersion: bundle.version, message: state.applied });
  } else deps.report({ state: 'failed', staged: null, message: `install failed: ${out.message}` });
  await noteInstall(
    deps,
    out.ok ? `installed firmware ${bundle.version}` : `firmware ${bundle.version} failed to install`,
  );
  return deps.pollMs;
}

/**
 * Tells the owner's event ring what happened to an update (POST /api/devices/event, kind
 * `device_note`, docs/platform.md, "Devices"): the owner sees it beside the pointer they set. Best effort.
 */
async function noteInstall(deps: Deps, detail: string): Promise<void> {
  const out = await deps.api.call('POST', PATHS.event, {
    kind: 'device_note',
    detail: detail.slice(0, LIMITS.eventDetailChars),
  });
  if (!out.ok) deps.log.warn('could not note the install on the platform', { error: out.failure.message });
}

/** Decides whether a pointer is worth fetching for this robot, reporting why not. */
function worthFetching(deps: Deps, state: PollerState, pointer: FirmwarePointer | null): pointer is FirmwarePointer {
  const current = deps.updater.currentVersion();
  const order = pointer ? compareVersions(pointer.version, current) : 0;
  if (!pointer || pointer.version === current || (order === 0 && !pointer.force)) {
    deps.report({ ...settled(state), available: null });
    return false;
  }
  if (order < 0 && !pointer.force) {
    deps.report({
      state: 'refused',
      available: pointer.version,
      message: `downgrade to ${pointer.version} refused (not forced)`,
    });
    return false;
  }
  if (state.rejected === `${pointer.version}:${pointer.sha256}`) return false;
  return state.staged?.version !== pointer.version;
}

/**
 * Reads the pointer and stages a bundle worth having; says whether it failed transiently. A 401
 * "means stop asking" and a 503 with `retryable` is transient (docs/platform.md, "Devices"); a refused
 * 401 is left to the strike policy and the hourly poll.
 */
async function poll(deps: Deps, state: PollerState): Promise<'transient' | 'settled'> {
  deps.report({
    ...(state.applied ? {} : { state: 'checking' as const }),
    currentVersion: deps.updater.currentVersion(),
  });
  const out = await deps.api.call('PUT', PATHS.firmware, { channel: deps.channel() });
  state.lastPollAt = deps.scheduler.now();
  if (!out.ok && out.failure.kind === 'not_found') {
    // A platform without firmware pointers (a running copy of the platform answers this route
    // with its 404 page): not a fault of this robot, so not shown as one.
    deps.report({
      state: 'unoffered',
      lastCheckedAt: state.lastPollAt,
      available: null,
      message: `this platform offers no firmware updates; it is asked again in ${Math.round(deps.pollMs / 60_000)} min`,
    });
    return 'settled';
  }
  if (!out.ok) {
    deps.report({ state: 'failed', lastCheckedAt: state.lastPollAt, message: out.failure.message });
    return out.failure.retryable && out.failure.kind !== 'unauthorized' ? 'transient' : 'settled';
  }
  deps.report({ lastCheckedAt: state.lastPollAt });
  const pointer = parsePointer(out.value.body.bundle);
  if (!worthFetching(deps, state, pointer)) return 'settled';
  deps.report({ state: 'downloading', available: pointer.version, message: null });
  const download = { scheduler: deps.scheduler, ...(deps.fetch ? { fetch: deps.fetch } : {}) };
  const result = await stageBundle(deps.http, download, deps.root, pointer);
  if (result.ok) {
    state.staged = result.value;
    deps.report({ state: 'staged', staged: result.value.version });
    return 'settled';
  }
  if (result.failure.kind === 'bad_bundle') state.rejected = `${pointer.version}:${pointer.sha256}`;
  deps.log.warn('firmware bundle refused', { version: pointer.version, reason: result.failure.message });
  deps.report({ state: 'failed', message: result.failure.message });
  return result.failure.transient === true ? 'transient' : 'settled';
}

/** After a transient failure: 1 min, doubling, at most 15 min, never later than the hourly poll. */
function retryDelay(deps: Deps, failures: number): number {
  return Math.min(FIRMWARE.retryFirstMs * 2 ** (failures - 1), FIRMWARE.retryCapMs, deps.pollMs);
}

/** Creates the firmware poller. */
export function createFirmwarePoller(input: FirmwarePollerDeps): FirmwarePoller {
  const deps: Deps = {
    ...input,
    pollMs: input.pollMs ?? CADENCE.firmwareMs,
    applyRetryMs: input.applyRetryMs ?? CADENCE.firmwareApplyRetryMs,
  };
  const state: PollerState = { staged: null, lastPollAt: null, rejected: null, failures: 0, applied: null };
  return {
    async tick() {
      deps.report({ installer: deps.updater.installer() });
      const wait = state.failures > 0 ? retryDelay(deps, state.failures) : deps.pollMs;
      const now = deps.scheduler.now();
      // A last read the clock now puts in the future (the wall clock was set back) is read as
      // long ago: waiting for the clock to catch up stopped the checks for as long as it went back.
      const due = state.lastPollAt === null || now < state.lastPollAt || now - state.lastPollAt >= wait;
      if (due) state.failures = (await poll(deps, state)) === 'transient' ? state.failures + 1 : 0;
      if (state.staged && deps.live()) return tryApply(deps, state);
      return state.failures > 0 ? retryDelay(deps, state.failures) : deps.pollMs;
    },
    pollSoon: () => void (state.lastPollAt = null),
  };
}
