/**
 * The firmware pointer loop (issue 10, item 4): PUT /api/firmware/manifest {channel} hourly
 * by default; a newer bundle is verified and staged, then applied through the injected
 * updater only while the robot is idle and the operator allows it. A downgrade is refused
 * unless the pointer is forced (the platform's own rule, reference-notes §2.6).
 */
import type { DeviceApi } from '../device-api.ts';
import { CADENCE, PATHS } from '../limits.ts';
import type { LoopTick } from '../loop.ts';
import type { PlatformHttp } from '../platform-http.ts';
import type { FirmwareStatus } from '../status.ts';
import type { PlatformLog, Scheduler } from '../types.ts';
import { parsePointer, stageBundle, type FirmwarePointer, type StagedBundle } from './bundle.ts';
import { compareVersions } from './version.ts';

/** The console's side of an update. */
export interface FirmwareUpdater {
  currentVersion(): string;
  /** True when no move, turn or speech is in progress. */
  isIdle(): boolean;
  /** True when the operator has allowed updates to be applied. */
  operatorAllows(): boolean;
  /** Installs a staged bundle (typically followed by a restart). */
  apply(bundle: StagedBundle): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** Dependencies of the firmware loop. */
export interface FirmwarePollerDeps {
  api: DeviceApi;
  http: PlatformHttp;
  updater: FirmwareUpdater;
  /** Folder for staged bundles, inside the data dir. */
  root: string;
  channel: () => string;
  scheduler: Scheduler;
  log: PlatformLog;
  report: (patch: Partial<FirmwareStatus>) => void;
  pollMs?: number;
  applyRetryMs?: number;
}

/** The firmware loop's tick and a way to make its next tick read the pointer again. */
export interface FirmwarePoller {
  tick: LoopTick;
  /** Forgets when the pointer was last read (a channel change), so the next tick polls. */
  pollSoon(): void;
}

/** Creates the firmware poller. */
export function createFirmwarePoller(deps: FirmwarePollerDeps): FirmwarePoller {
  const pollMs = deps.pollMs ?? CADENCE.firmwareMs;
  const applyRetryMs = deps.applyRetryMs ?? CADENCE.firmwareApplyRetryMs;
  let staged: StagedBundle | null = null;
  let lastPollAt: number | null = null;
  // A bundle that failed verification is not fetched again until the pointer changes.
  let rejected: string | null = null;

  async function tryApply(): Promise<number> {
    if (!staged) return pollMs;
    if (!deps.updater.isIdle() || !deps.updater.operatorAllows()) {
      deps.report({ state: 'staged', staged: staged.version, message: 'waiting for an idle robot and the operator’s consent' });
      return applyRetryMs;
    }
    deps.report({ state: 'applying', message: null });
    const bundle = staged;
    staged = null;
    const out = await deps.updater.apply(bundle);
    if (out.ok) deps.report({ state: 'applied', staged: null, currentVersion: bundle.version, message: `applied ${bundle.version}` });
    else deps.report({ state: 'failed', staged: null, message: `apply failed: ${out.message}` });
    return pollMs;
  }

  /** Decides what a pointer means for this robot; returns null when there is nothing to fetch. */
  function judge(pointer: FirmwarePointer | null, current: string): 'fetch' | null {
    if (!pointer || pointer.version === current) {
      deps.report({ state: 'up_to_date', available: null, message: null });
      return null;
    }
    const order = compareVersions(pointer.version, current);
    if (order < 0 && !pointer.force) {
      deps.report({ state: 'refused', available: pointer.version, message: `downgrade to ${pointer.version} refused (not forced)` });
      return null;
    }
    if (order === 0 && !pointer.force) {
      deps.report({ state: 'up_to_date', available: null, message: null });
      return null;
    }
    if (rejected === `${pointer.version}:${pointer.sha256}`) return null;
    return staged?.version === pointer.version ? null : 'fetch';
  }

  async function poll(): Promise<void> {
    deps.report({ state: 'checking', currentVersion: deps.updater.currentVersion() });
    const out = await deps.api.call('PUT', PATHS.firmware, { channel: deps.channel() });
    lastPollAt = deps.scheduler.now();
    if (!out.ok) return void deps.report({ state: 'failed', lastCheckedAt: lastPollAt, message: out.failure.message });
    deps.report({ lastCheckedAt: lastPollAt });
    const pointer = parsePointer(out.value.body.bundle);
    if (judge(pointer, deps.updater.currentVersion()) !== 'fetch' || !pointer) return;
    deps.report({ state: 'downloading', available: pointer.version, message: null });
    const result = await stageBundle(deps.http, deps.root, pointer);
    if (result.ok) {
      staged = result.value;
      deps.report({ state: 'staged', staged: staged.version });
      return;
    }
    if (result.failure.kind === 'bad_bundle') rejected = `${pointer.version}:${pointer.sha256}`;
    deps.log.warn('firmware bundle refused', { version: pointer.version, reason: result.failure.message });
    deps.report({ state: 'failed', message: result.failure.message });
  }

  return {
    async tick() {
      const due = lastPollAt === null || deps.scheduler.now() - lastPollAt >= pollMs;
      if (due) await poll();
      return staged ? tryApply() : pollMs;
    },
    pollSoon: () => void (lastPollAt = null),
  };
}
