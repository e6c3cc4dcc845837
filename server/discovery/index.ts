/**
 * First-run setup and LAN discovery for the desktop server (server/discovery/README-discovery.md): the
 * robot's stored name and the guide's state, the mDNS advertisement and browser, the fleet
 * list, and the `.local` name the Host allowlist accepts while advertising.
 */
import type { AdvertisingStatus, CockpitIdentity, SetupView } from '../contract/discovery.ts';
import { isLoopbackHost, type Config } from '../config.ts';
import type { Log } from '../log.ts';
import { COCKPIT_VERSION } from '../version.ts';
import { createFleet, type Fleet } from './fleet.ts';
import { createFleetStore } from './fleet-store.ts';
import { createLanDiscovery, type LanDiscovery, type LanDiscoveryOptions } from './lan-discovery.ts';
import { localHostLabel } from './network-text.ts';
import { createSetupStore, type SetupRecord, type SetupStore } from './setup-store.ts';
import { cockpitTxt } from './txt-record.ts';

export interface DiscoveryOptions {
  config: Pick<Config, 'dataDir' | 'host' | 'mdns' | 'robot'>;
  log: Log;
  /** The local CA's fingerprint, null without HTTPS. */
  fingerprint: () => string | null;
  now?: () => number;
  /** Socket, cadence or a stand-in transport of the mDNS side, for tests. */
  lan?: Pick<LanDiscoveryOptions, 'socket' | 'queryIntervalMs' | 'transport'>;
  /** The host's name, the robot's until it is named (tests pass one). */
  hostName?: string;
  /** The HTTPS address phones on the LAN open, when there is one (server/auth/https-service.ts). */
  httpsUrl?: () => string | undefined;
}

export interface Discovery {
  readonly setup: SetupStore;
  readonly fleet: Fleet;
  load(): Promise<void>;
  /** Starts advertising and browsing once the listeners have their ports (when allowed). */
  start(ports: { httpPort: number; httpsPort: number | undefined }): void;
  identity(): CockpitIdentity;
  view(): SetupView;
  advertising(): AdvertisingStatus;
  browsing(): boolean;
  update(change: Partial<SetupRecord>): Promise<SetupView>;
  /** The `.local` names this cockpit answers to while it advertises them. */
  localNames(): string[];
  stop(): Promise<void>;
}

/** Why discovery does not run, or undefined when it may. */
export function discoveryOffReason(config: Pick<Config, 'host' | 'mdns'>): string | undefined {
  if (!config.mdns) return 'switched off (ROBOT_MDNS=0)';
  if (isLoopbackHost(config.host)) return `off: bound to ${config.host}, which only this machine can reach`;
  return undefined;
}

export function createDiscovery(options: DiscoveryOptions): Discovery {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const setup = createSetupStore({ dataDir: config.dataDir, log: log.child('setup'), ...(options.hostName ? { hostName: options.hostName } : {}) });
  const store = createFleetStore({ dataDir: config.dataDir, log: log.child('fleet') });
  const offReason = discoveryOffReason(config);
  let ports: { httpPort: number; httpsPort: number | undefined } | undefined;
  let lan: LanDiscovery | undefined;
  const fleet = createFleet({ store, sightings: () => lan?.sightings() ?? [], now, log: log.child('fleet') });

  const identity = (): CockpitIdentity => ({
    name: setup.name(),
    kind: config.robot === 'wheeled' ? 'wheeled' : 'desktop',
    https_port: ports?.httpsPort ?? null,
    fingerprint: ports?.httpsPort ? options.fingerprint() : null,
  });
  const hostLabel = () => localHostLabel(setup.name()) ?? localHostLabel(options.hostName ?? '') ?? 'robot-cockpit';
  const advertising = (): AdvertisingStatus =>
    lan ? lan.status() : { on: false, detail: offReason ?? 'starting', localName: null };

  setup.onChange(() => {
    lan?.republish().catch((err: unknown) => log.warn('re-advertising after a rename failed', { error: String(err) }));
  });

  return {
    setup,
    fleet,
    async load() {
      await setup.load();
      await store.load();
    },
    start(bound) {
      ports = bound;
      if (offReason) {
        log.info('LAN discovery is off', { reason: offReason });
        return;
      }
      lan = createLanDiscovery({
        advertisement: () => ({
          name: setup.name(),
          host: `${hostLabel()}.local`,
          port: bound.httpPort,
          txt: cockpitTxt(identity(), COCKPIT_VERSION),
        }),
        log: log.child('mdns'),
        now,
        onSighting: (s) => fleet.sighted(s),
        ...options.lan,
      });
      lan.start();
    },
    identity,
    view: () => ({
      name: setup.name(),
      named: setup.get().name !== null,
      guide: setup.get().guide,
      advertising: advertising(),
      httpsUrl: options.httpsUrl?.() ?? null,
    }),
    advertising,
    browsing: () => lan?.browsing() ?? false,
    async update(change) {
      await setup.update(change);
      return this.view();
    },
    localNames() {
      const status = advertising();
      return status.on && status.localName ? [status.localName] : [];
    },
    async stop() {
      await lan?.stop();
      lan = undefined;
    },
  };
}
