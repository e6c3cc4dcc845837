/**
 * What the fleet view keeps across restarts, in `<data dir>/fleet.json`: robots added by address,
 * and the certificate fingerprint first seen for each peer (with the change, once one is seen,
 * until the owner trusts the new fingerprint).
 */
import { join } from 'node:path';
import type { FingerprintChange } from '../contract/discovery.ts';
import type { Log } from '../log.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';

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
}

export interface FleetRecord {
  manual: ManualPeer[];
  fingerprints: Record<string, KnownFingerprint>;
}

export const MAX_MANUAL_PEERS = 64;
/**
 * Bounds the file: beyond this many fingerprints of robots seen on the LAN, the oldest go first.
 * Those of robots added by address are never among them (at most MAX_MANUAL_PEERS): anyone on
 * the LAN can announce made-up robots, and must not be able to make the cockpit forget the
 * fingerprint it expects from a robot the owner added.
 */
const MAX_FINGERPRINTS = 256;

const isPort = (u: unknown) => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= 65535;

function validManual(u: unknown): u is ManualPeer {
  if (typeof u !== 'object' || u === null) return false;
  const p = u as Record<string, unknown>;
  return (
    typeof p.id === 'string' &&
    typeof p.host === 'string' &&
    isPort(p.port) &&
    (p.httpsPort === null || isPort(p.httpsPort)) &&
    typeof p.addedAt === 'string'
  );
}

function validKnown(u: unknown): u is KnownFingerprint {
  if (typeof u !== 'object' || u === null) return false;
  const k = u as Record<string, unknown>;
  if (typeof k.fingerprint !== 'string') return false;
  if (k.change === null) return true;
  const c = k.change as Record<string, unknown> | undefined;
  return typeof c === 'object' && c !== null && typeof c.previous === 'string' && typeof c.current === 'string' && typeof c.at === 'string';
}

function validRecord(u: unknown): FleetRecord | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  if (!Array.isArray(r.manual) || !r.manual.every(validManual)) return undefined;
  if (typeof r.fingerprints !== 'object' || r.fingerprints === null) return undefined;
  const entries = Object.entries(r.fingerprints as Record<string, unknown>);
  if (!entries.every(([, v]) => validKnown(v))) return undefined;
  return { manual: r.manual, fingerprints: Object.fromEntries(entries) as Record<string, KnownFingerprint> };
}

export function createFleetStore(options: { dataDir: string; log: Log }): JsonDocument<FleetRecord> {
  return createJsonDocument({
    file: join(options.dataDir, 'fleet.json'),
    defaults: () => ({ manual: [], fingerprints: {} }),
    validate: validRecord,
    log: options.log,
  });
}

/**
 * The record after a sighting of `fingerprint` for peer `id`: the first one is remembered; a
 * different one later is a change, kept until trusted. Unchanged input returns the same record.
 */
export function withSighting(record: FleetRecord, id: string, fingerprint: string, at: string): FleetRecord {
  const known = record.fingerprints[id];
  if (known && known.fingerprint === fingerprint && known.change === null) return record;
  if (known?.change && known.change.current === fingerprint) return record;
  const next: KnownFingerprint = !known
    ? { fingerprint, change: null }
    : known.fingerprint === fingerprint
      ? { fingerprint, change: null }
      : { fingerprint: known.fingerprint, change: { previous: known.fingerprint, current: fingerprint, at } };
  const entries = Object.entries({ ...record.fingerprints, [id]: next });
  const manual = new Set(record.manual.map((m) => m.id));
  let excess = entries.filter(([key]) => !manual.has(key)).length - MAX_FINGERPRINTS;
  const kept = entries.filter(([key]) => manual.has(key) || excess-- <= 0);
  return { ...record, fingerprints: Object.fromEntries(kept) };
}

/** The owner accepts the new fingerprint: it becomes the one expected. */
export function withTrusted(record: FleetRecord, id: string): FleetRecord {
  const known = record.fingerprints[id];
  if (!known?.change) return record;
  return { ...record, fingerprints: { ...record.fingerprints, [id]: { fingerprint: known.change.current, change: null } } };
}
