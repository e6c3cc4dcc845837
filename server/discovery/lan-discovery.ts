/**
 * mDNS/DNS-SD on the LAN: advertises this cockpit as `_robot-cockpit._tcp` (bonjour-service
 * probes, announces and says goodbye), and listens on the same socket for other cockpits and for
 * Reachy Mini daemons (`_reachy-mini._tcp`). Responses are read by sightingsInPacket, never by
 * the library's own browser, so a hostile packet cannot throw inside the socket's handler.
 * Socket errors and bad packets are logged at debug and never stop the cockpit.
 */
import { createSocket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { Bonjour } from 'bonjour-service';
import type { AdvertisingStatus } from '../contract/discovery.ts';
import type { Log } from '../log.ts';
import { sightingsInPacket, type Sighting } from './mdns-packet.ts';
import { groupRejoiner, joinAddresses, type GroupSocket } from './multicast-membership.ts';
import { dropOffLink, onLinkChecker, type MessageSocket } from './on-link.ts';
import { packetBudget } from './packet-budget.ts';
import { gateResponder, type ResponderServer } from './responder-gate.ts';
import { COCKPIT_SERVICE, DAEMON_SERVICE } from './txt-record.ts';

export interface Advertisement {
  /** The instance name: the robot's name. */
  name: string;
  /** `<label>.local`, the host name the A/AAAA records answer for. */
  host: string;
  /** The desktop server's plain HTTP port (the SRV port). */
  port: number;
  txt: Record<string, string>;
}

export interface TimedSighting extends Sighting {
  /** Epoch ms of the last packet that carried it. */
  seenAt: number;
}

export interface LanDiscoveryOptions {
  advertisement: () => Advertisement;
  log: Log;
  now: () => number;
  /** Passed to multicast-dns: `interface` to pick one, `port`/`ip` or a stand-in dgram `socket` for tests. */
  socket?: { interface?: string; port?: number; ip?: string; socket?: unknown };
  /** The mDNS side; bonjour-service on a real socket unless a test passes its own. */
  transport?: (log: Log) => MdnsTransport;
  /** How often to ask the LAN again; sightings older than three of these are dropped. */
  queryIntervalMs?: number;
  onSighting?: (sighting: TimedSighting) => void;
  /** The machine's addresses, as the A/AAAA records carry them (hostAddresses); tests pass their own. */
  addresses?: () => string[];
  /** Whether a sender is on this machine's link (isOnLink); tests pass their own. */
  onLink?: (address: string) => boolean;
}

export interface LanDiscovery {
  start(): void;
  /** Says goodbye under the old name and announces the new one (after a rename). */
  republish(): Promise<void>;
  /** Sends the PTR questions now (also done on a timer). */
  query(): void;
  sightings(): TimedSighting[];
  status(): AdvertisingStatus;
  /** True while the socket listens for other robots. */
  browsing(): boolean;
  stop(): Promise<void>;
}

/** The slice of multicast-dns the browser side uses. */
export interface MdnsSocket {
  on(event: 'response', listener: (packet: unknown, rinfo?: { address: string }) => void): void;
  on(event: 'warning' | 'error', listener: (err: Error) => void): void;
  query(questions: { name: string; type: string }[]): void;
}

/** One advertised service: bonjour-service's Service, as far as it is used here. */
export interface PublishedService {
  readonly published: boolean;
  on(event: 'up', listener: () => void): unknown;
  stop: CallableFunction;
}

export interface MdnsTransport {
  socket: MdnsSocket;
  publish(config: { name: string; type: string; port: number; host: string; txt: Record<string, string> }): PublishedService;
  destroy(done: () => void): void;
  /** Joins the mDNS group again on every interface (multicast-membership.ts); each round calls it. */
  rejoin?(): void;
}

/** bonjour-service: probing, announcing and goodbyes, over one multicast-dns socket. */
export function bonjourTransport(
  socketOptions: LanDiscoveryOptions['socket'] = {},
  now: () => number = Date.now,
  onLink: (address: string) => boolean = onLinkChecker(now),
): (log: Log) => MdnsTransport {
  return (log) => {
    // The socket is made here, as multicast-dns would make it, so that its memberships can be renewed.
    const udp = (socketOptions.socket ?? createSocket({ type: 'udp4', reuseAddr: true })) as GroupSocket & MessageSocket;
    const rejoin = groupRejoiner(udp, socketOptions.ip ?? '224.0.0.251');
    const mdnsOptions = { ...socketOptions, socket: udp };
    const bonjour = new Bonjour(mdnsOptions, (err: Error) => log.debug('mDNS send failed', { error: String(err) }));
    // Off-link senders first (they are never read), then the budget, before multicast-dns decodes anything.
    const admit = packetBudget(now, log);
    dropOffLink(udp, (address, message) => onLink(address) && admit(message.length));
    // bonjour-service keeps its multicast-dns socket and responder on a field its types call
    // private; the browser reads responses from that same socket rather than opening a second one.
    const server = (bonjour as unknown as { server: ResponderServer & { mdns: MdnsSocket } }).server;
    gateResponder(server, now, onLink);
    return {
      socket: server.mdns,
      publish: (config) => bonjour.publish(config),
      destroy: (done) => bonjour.destroy(done),
      rejoin: () => rejoin(socketOptions.interface ? [socketOptions.interface] : joinAddresses()),
    };
  };
}

/**
 * The addresses bonjour-service puts in the A/AAAA records (its `records()`): every
 * interface's but loopback's and those without a hardware address. It reads them once, when the
 * service is published, and answers with them until it is published again.
 */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && a.mac !== '00:00:00:00:00:00')
    .map((a) => a.address)
    .sort();
}

/** A LAN with more robots than this is not one we serve; a flood of made-up names stops here. */
export const MAX_SIGHTINGS = 256;

const QUESTIONS = [COCKPIT_SERVICE, DAEMON_SERVICE].map((s) => ({ name: `_${s}._tcp.local`, type: 'PTR' }));

export function createLanDiscovery(options: LanDiscoveryOptions): LanDiscovery {
  const { log, now } = options;
  const interval = options.queryIntervalMs ?? 60_000;
  const seen = new Map<string, TimedSighting>();
  let bonjour: MdnsTransport | undefined;
  let service: PublishedService | undefined;
  let published: Advertisement | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failure: string | undefined;
  let socket: MdnsSocket | undefined;
  const addresses = options.addresses ?? hostAddresses;
  /** The addresses announced, to notice a lease renewed to a new one or an interface come or gone. */
  let announced = '';
  let republishing: Promise<void> | undefined;
  let republishes: Promise<void> = Promise.resolve();

  const keyOf = (s: Sighting) => `${s.service}\u0000${s.instance.toLowerCase()}`;
  const isSelf = (s: Sighting) =>
    s.service === 'cockpit' && published !== undefined && s.instance.toLowerCase() === published.name.split('.').join('-').toLowerCase();

  const onLink = options.onLink ?? onLinkChecker(now);
  const onResponse = (packet: unknown, rinfo?: { address: string }) => {
    // A stand-in socket passes no sender; multicast-dns always does.
    if (rinfo && !onLink(rinfo.address)) {
      log.debug('mDNS response from off this link dropped', { from: rinfo.address });
      return;
    }
    for (const sighting of sightingsInPacket(packet)) {
      if (isSelf(sighting)) continue;
      const key = keyOf(sighting);
      if (sighting.ttl === 0) {
        seen.delete(key);
        continue;
      }
      const timed = { ...sighting, seenAt: now() };
      seen.delete(key);
      seen.set(key, timed);
      // Map order is insertion order: the first key is the one heard from longest ago.
      if (seen.size > MAX_SIGHTINGS) {
        const oldest = seen.keys().next().value;
        if (oldest !== undefined) seen.delete(oldest);
        log.debug('too many robots on the LAN; the one heard from longest ago was dropped');
      }
      try {
        options.onSighting?.(timed);
      } catch (err) {
        log.debug('a sighting could not be recorded', { error: String(err) });
      }
    }
  };

  const publish = () => {
    if (!bonjour) return;
    const ad = options.advertisement();
    published = ad;
    announced = addresses().join(' ');
    service = bonjour.publish({ name: ad.name, type: COCKPIT_SERVICE, port: ad.port, host: ad.host, txt: ad.txt });
    service.on('up', () => log.info('advertising on the LAN', { name: ad.name, host: ad.host }));
  };

  const unpublish = () =>
    new Promise<void>((resolve) => {
      const current = service;
      service = undefined;
      if (!current) return resolve();
      current.stop(() => resolve());
    });

  return {
    start() {
      if (bonjour) return;
      try {
        bonjour = (options.transport ?? bonjourTransport(options.socket, now, onLink))(log);
        socket = bonjour.socket;
        socket.on('response', onResponse);
        socket.on('warning', (err) => log.debug('mDNS packet dropped', { error: String(err) }));
        socket.on('error', (err) => {
          failure = `mDNS socket failed: ${err.message}`;
          log.warn('LAN discovery stopped', { error: err.message });
        });
        publish();
        this.query();
        timer = setInterval(() => this.query(), interval);
        timer.unref();
      } catch (err) {
        failure = `mDNS could not start: ${(err as Error).message}`;
        log.warn('LAN discovery could not start', { error: String(err) });
      }
    },
    republish() {
      // One at a time: a second rename while the first's goodbye was still going out found no
      // service to stop, published its own, and the first then published another; one of the two
      // was never stopped, answered under its name until the cockpit ended, and got no goodbye.
      const run = republishes.then(async () => {
        if (!bonjour) return;
        await unpublish();
        publish();
      });
      republishes = run.catch(() => undefined);
      return run;
    },
    query() {
      // Peers ask again only now and then, and keep what we answered: a robot whose address
      // changed kept answering with the old one, and was listed where nobody could reach it.
      if (bonjour && published && !republishing && addresses().join(' ') !== announced) {
        log.info("the machine's addresses changed; announcing the new ones");
        republishing = this.republish()
          .catch((err: unknown) => log.warn('re-advertising new addresses failed', { error: String(err) }))
          .finally(() => (republishing = undefined));
      }
      bonjour?.rejoin?.();
      try {
        socket?.query(QUESTIONS);
      } catch (err) {
        log.debug('mDNS query failed', { error: String(err) });
      }
    },
    sightings() {
      // A peer that stopped answering three rounds of questions is gone (or off the LAN).
      const cutoff = now() - 3 * interval;
      for (const [key, s] of seen) if (s.seenAt < cutoff) seen.delete(key);
      return [...seen.values()];
    },
    status() {
      if (failure) return { on: false, detail: failure, localName: null };
      if (!published) return { on: false, detail: 'not started', localName: null };
      // Until the probe finds the name free and the first announcement is out, nobody can find us;
      // a name another host already uses stays unannounced (bonjour-service stops the service).
      if (!service?.published) return { on: false, detail: `announcing ${published.name} (or the name is in use on the LAN)`, localName: null };
      return { on: true, detail: `${published.name} on ${published.host}`, localName: published.host };
    },
    browsing: () => socket !== undefined && failure === undefined,
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (!bonjour) return;
      await unpublish();
      const b = bonjour;
      bonjour = undefined;
      published = undefined;
      socket = undefined;
      await new Promise<void>((resolve) => b.destroy(() => resolve()));
    },
  };
}
