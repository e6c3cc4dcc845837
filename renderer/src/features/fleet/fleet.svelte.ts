/**
 * The fleet page's state: the cockpit's list of robots, and what this browser learnt by reading
 * each cockpit's public health. A fingerprint in a robot's health that differs from the one the
 * cockpit knows is reported, so the cockpit can warn when a robot's certificate changes.
 */
import {
  addPeer,
  fetchPeerHealth,
  getFleet,
  removePeer,
  reportFingerprint,
  trustPeer,
  type FleetPeer,
  type FleetView,
} from '../../lib/api/fleet-api.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';
import { healthUrl, readPeerHealth, sortPeers, type PeerReach } from './fleet-format.ts';

export interface FleetRow {
  peer: FleetPeer;
  reach: PeerReach;
}

export class FleetState {
  view = $state.raw<FleetView | null>(null);
  reach = $state.raw<Readonly<Record<string, PeerReach>>>({});
  problem = $state<string | null>(null);
  readonly rows: FleetRow[] = $derived(
    sortPeers(
      (this.view?.peers ?? []).map((peer) => ({
        peer,
        reach: peer.service === 'reachy-mini' ? { state: 'daemon' as const } : (this.reach[peer.id] ?? { state: 'checking' as const }),
      })),
    ),
  );
  readonly #http: HttpClient;
  readonly #pageIsHttps: boolean;

  constructor(http: HttpClient, pageIsHttps: boolean) {
    this.#http = http;
    this.#pageIsHttps = pageIsHttps;
  }

  /** Reads the list, then every cockpit's health at once. */
  async load(): Promise<void> {
    const result = await getFleet(this.#http);
    if (!result.ok) {
      this.problem = result.message;
      return;
    }
    this.problem = null;
    this.view = result.data;
    await Promise.all(result.data.peers.filter((p) => p.service === 'cockpit').map((p) => this.#check(p)));
  }

  async #check(peer: FleetPeer): Promise<void> {
    const health = readPeerHealth(await fetchPeerHealth(healthUrl(peer, this.#pageIsHttps)));
    this.reach = { ...this.reach, [peer.id]: health ? { state: 'answers', health } : { state: 'silent' } };
    const seen = health?.fingerprint;
    if (!seen || seen === peer.fingerprint || seen === peer.fingerprintChange?.current) return;
    const reported = await reportFingerprint(this.#http, peer.id, seen);
    if (reported.ok) this.#replace(reported.data);
  }

  #replace(peer: FleetPeer): void {
    if (!this.view) return;
    this.view = { ...this.view, peers: this.view.peers.map((p) => (p.id === peer.id ? peer : p)) };
  }

  /** Returns the refusal text, or null once the robot is listed. */
  async add(host: string, port: number | undefined): Promise<string | null> {
    const result = await addPeer(this.#http, { host, ...(port === undefined ? {} : { port }) });
    if (!result.ok) return result.message;
    await this.load();
    return null;
  }

  async remove(id: string): Promise<void> {
    const result = await removePeer(this.#http, id);
    this.problem = result.ok ? null : result.message;
    await this.load();
  }

  async trust(id: string): Promise<void> {
    const result = await trustPeer(this.#http, id);
    if (result.ok) this.#replace(result.data);
    else this.problem = result.message;
  }
}
