/**
 * Keeps the capability map of the connected daemon current: the route list is read at the first
 * status answer, again whenever the reported version changes, and again after the daemon was
 * unreachable (a restart may be an upgrade). A daemon without `/openapi.json` gives an unknown
 * map once per connection, not a retry every second.
 */
import { isAppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { capabilitiesFrom, UNKNOWN_CAPABILITIES, versionReport, type Capabilities } from './capabilities.ts';
import type { DaemonClient } from './daemon-client.ts';
import type { StateFeed } from './state-feed.ts';

export interface CapabilityWatch {
  current(): Capabilities;
  /** Resolves once a map for the connected daemon was read (or found unavailable). */
  ready(): Promise<Capabilities>;
  stop(): void;
}

export function watchCapabilities(deps: {
  daemon: Pick<DaemonClient, 'openApi'>;
  feed: Pick<StateFeed, 'onStatus'>;
  log: Log;
}): CapabilityWatch {
  let caps: Capabilities = UNKNOWN_CAPABILITIES;
  let loadedFor: string | null | undefined;
  let lostSinceLoad = true;
  let loading = false;
  let waiters: ((c: Capabilities) => void)[] = [];

  const load = async (version: string | null): Promise<void> => {
    loading = true;
    try {
      caps = capabilitiesFrom(version, await deps.daemon.openApi());
    } catch (err) {
      caps = { ...UNKNOWN_CAPABILITIES, version };
      deps.log.warn('daemon route list unavailable; capabilities unknown', {
        error: isAppError(err) ? err.message : String(err),
      });
    } finally {
      const report = versionReport(caps);
      // Version skew is a warning, once per connection, never a refusal to run.
      if (report.warning) deps.log.warn(report.warning);
      if (report.missing.length > 0) deps.log.info('the daemon lacks routes the cockpit can use', { missing: report.missing });
      loading = false;
      loadedFor = version;
      lostSinceLoad = false;
      for (const w of waiters) w(caps);
      waiters = [];
    }
  };

  const off = deps.feed.onStatus((status) => {
    if (!status) {
      lostSinceLoad = true;
      return;
    }
    const version = typeof status.version === 'string' ? status.version : null;
    if (loading || (!lostSinceLoad && version === loadedFor)) return;
    void load(version);
  });

  return {
    current: () => caps,
    ready: () =>
      loadedFor !== undefined && !loading && !lostSinceLoad ? Promise.resolve(caps) : new Promise((r) => waiters.push(r)),
    stop: off,
  };
}
