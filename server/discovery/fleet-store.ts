/**
 * What the fleet view keeps across restarts, in `<data dir>/fleet.json`: robots added by address,
 * and the certificate fingerprint first seen for each peer (with the change, once one is seen,
 * until the owner trusts the new fingerprint).
 */
import { join } from 'node:path';
import type { FingerprintChange } from '../contract/discovery.ts';
import type { Log } from '../log.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';
import { manualPeerId, parsePeerHost } from './peer-address.ts';

export interface ManualPeer {
  id: string;
  host: string;
  port: number;
  httpsPort: number | null;
  addedAt: string;
}

export interface KnownFingerprint {
  fingerprint: string;
  change: FingerprintChange | null;
  /** ISO time of the last sighting, kept to the day; absent in files written before it was kept. */
  seen?: string;
}

export interface FleetRecord {
  manual: ManualPeer[];
  fingerprints: Record<string, KnownFingerprint>;
}

export const MAX_MANUAL_PEERS = 64;
/**
 * Bounds the file: at most this many fingerprints of robots seen on the LAN. Anyone on the LAN
 * can announce made-up robots, and must not be able to make the cockpit forget the fingerprint it
 * expects from a robot it knows (then take an impostor's as the first one seen): a newcomer only
 * takes the place of a robot not seen for STALE_MS, and is not remembered when none is that old.
 * Those of robots added by address are never among them (at most MAX_MANUAL_PEERS).
 */
export const MAX_FINGERPRINTS = 256;
export const STALE_MS = 30 * 24 * 3600_000;
/** A robot seen again keeps its place; the stored time of its last sighting moves once a day. */
const SEEN_EVERY_MS = 24 * 3600_000;

const isPort = (u: unknown) => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 65535;

/** A host as the API stores it (parsePeerHost's own answer), so the browser gets no other. */
function isStoredHost(host: string): boolean {
  try {
    return parsePeerHost(host) === host;
  } catch {
    return false;
  }
}

function validManual(u: unknown): u is ManualPeer {
  if (typeof u !== 'object' || u === null) return false;
  const p = u as Record<string, unknown>;
  return (
    typeof p.host === 'string' &&
    isStoredHost(p.host) &&
    isPort(p.port) &&
    // The id the API gives it: another would be listed twice under one id, or under a LAN robot's.
    p.id === manualPeerId(p.host, p.port as number) &&
    (p.httpsPort === null || isPort(p.httpsPort)) &&
    typeof p.addedAt === 'string'
  );
}

function validKnown(u: unknown): u is KnownFingerprint {
  if (typeof u !== 'object' || u === null) return false;
  const k = u as Record<string, unknown>;
  if (typeof k.fingerprint !== 'string') return false;
  if (k.seen !== undefined && typeof k.seen !== 'string') return false;
  if (k.change === null) return true;
  const c = k.change as Record<string, unknown> | undefined;
  return typeof c === 'object' && c !== null && typeof c.previous === 'string' && typeof c.current === 'string' && typeof c.at === 'string';
}

/** What of the dropped entries goes into the log (the first 16 of each kind), for the owner to restore by hand. */
const DROPPED_LOG_CHARS = 4000;

/**
 * The record in `u`, without its damaged entries: a robot added by address that the API would not
 * take (a bad host or port, an id not its own, a repeat, one past MAX_MANUAL_PEERS) or a
 * fingerprint of the wrong shape is dropped alone and logged, where one such entry set the whole
 * file aside, and every robot added by address and every fingerprint remembered with it was lost.
 * Only a file that is not a fleet record at all is set aside.
 */
function validRecord(u: unknown, log: Log): FleetRecord | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  if (!Array.isArray(r.manual)) return undefined;
  if (typeof r.fingerprints !== 'object' || r.fingerprints === null || Array.isArray(r.fingerprints)) return undefined;
  const manual: ManualPeer[] = [];
  const droppedManual: unknown[] = [];
  for (const entry of r.manual as unknown[]) {
    if (manual.length >= MAX_MANUAL_PEERS || !validManual(entry) || manual.some((m) => m.id === entry.id)) droppedManual.push(entry);
    else manual.push({ id: entry.id, host: entry.host, port: entry.port, httpsPort: entry.httpsPort, addedAt: entry.addedAt });
  }
  const entries = Object.entries(r.fingerprints as Record<string, unknown>);
  const kept = entries.filter(([, v]) => validKnown(v));
  const droppedFingerprints = entries.filter(([, v]) => !validKnown(v));
  if (droppedManual.length > 0 || droppedFingerprints.length > 0) {
    log.warn('fleet.json had damaged entries; they were dropped and the rest kept', {
      manual: droppedManual.length,
      fingerprints: droppedFingerprints.length,
      dropped: JSON.stringify({
        manual: droppedManual.slice(0, 16),
        fingerprints: Object.fromEntries(droppedFingerprints.slice(0, 16)),
      }).slice(0, DROPPED_LOG_CHARS),
    });
  }
  return { manual, fingerprints: Object.fromEntries(kept) as Record<string, KnownFingerprint> };
}

export function createFleetStore(options: { dataDir: string; log: Log }): JsonDocument<FleetRecord> {
  return createJsonDocument({
    file: join(options.dataDir, 'fleet.json'),
    defaults: () => ({ manual: [], fingerprints: {} }),
    validate: (u) => validRecord(u, options.log),
    log: options.log,
  });
}

/** Epoch ms of a pin's last sighting; one never dated (an older file) counts as long ago. */
function seenMs(known: KnownFingerprint): number {
  const ms = known.seen === undefined ? NaN : Date.parse(known.seen);
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * The record after a sighting of `fingerprint` for peer `id` at `at`: the first one is
 * remembered; a different one later is a change, kept as it is until trusted, whatever is seen
 * meanwhile: the expected fingerprint seen again (the robot itself, while an impostor uses its
 * name) does not clear the warning, and a flood of alternating fingerprints writes nothing.
 * Unchanged input (seen again within a day) returns the same record.
 */
export function withSighting(record: FleetRecord, id: string, fingerprint: string, at: string): FleetRecord {
  const known = record.fingerprints[id];
  const atMs = Date.parse(at);
  const fresh = known !== undefined && atMs - seenMs(known) < SEEN_EVERY_MS;
  if (known && fresh && (known.change !== null || known.fingerprint === fingerprint)) return record;
  const next: KnownFingerprint = !known
    ? { fingerprint, change: null, seen: at }
    : known.change !== null || known.fingerprint === fingerprint
      ? { ...known, seen: at }
      : { fingerprint: known.fingerprint, change: { previous: known.fingerprint, current: fingerprint, at }, seen: at };
  const manual = new Set(record.manual.map((m) => m.id));
  const fingerprints = { ...record.fingerprints };
  const lan = Object.entries(fingerprints).filter(([key]) => !manual.has(key));
  const excess = known || manual.has(id) ? 0 : lan.length + 1 - MAX_FINGERPRINTS;
  if (excess > 0) {
    // Room for a newcomer comes only from robots not seen for STALE_MS, least recently seen first.
    const stale = lan.filter(([, k]) => atMs - seenMs(k) >= STALE_MS).sort(([, a], [, b]) => seenMs(a) - seenMs(b));
    if (stale.length < excess) return record;
    for (const [key] of stale.slice(0, excess)) delete fingerprints[key];
  }
  return { ...record, fingerprints: { ...fingerprints, [id]: next } };
}

/** The owner accepts the new fingerprint: it becomes the one expected. */
export function withTrusted(record: FleetRecord, id: string): FleetRecord {
  const known = record.fingerprints[id];
  if (!known?.change) return record;
  const trusted: KnownFingerprint = { fingerprint: known.change.current, change: null, ...(known.seen ? { seen: known.seen } : {}) };
  return { ...record, fingerprints: { ...record.fingerprints, [id]: trusted } };
}
