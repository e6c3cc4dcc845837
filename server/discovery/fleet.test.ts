/**
 * The fleet's fingerprint memory under a flood of made-up robots on the LAN, a robot not seen
 * for a month making room for a new one, a change that stays flagged until trusted, and the
 * address a robot with several is listed at.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { LogRecord } from '../log.ts';
import { MANUAL_CLOCK_START } from '../testing/manual-clock.ts';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { createFleet, lanPeerId, type Fleet } from './fleet.ts';
import { createFleetStore, MAX_FINGERPRINTS, STALE_MS } from './fleet-store.ts';
import type { TimedSighting } from './lan-discovery.ts';

const fingerprint = (byte: number) =>
  Array.from({ length: 32 }, () => byte.toString(16).padStart(2, '0'))
    .join(':')
    .toUpperCase();
const FP_A = fingerprint(0xaa);
const FP_B = fingerprint(0xbb);

let dir: string;
let cleanup: () => Promise<void>;
let fleet: Fleet;
let records: LogRecord[];
let live: TimedSighting[];

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  const recording = recordingLog();
  const { log } = recording;
  records = recording.records;
  const store = createFleetStore({ dataDir: dir, log });
  await store.load();
  live = [];
  fleet = createFleet({ store, sightings: () => live, now: () => MANUAL_CLOCK_START, log });
});
afterEach(() => cleanup());

const robot = (instance: string, fp: string, seenAt = MANUAL_CLOCK_START): TimedSighting => ({
  service: 'cockpit',
  instance,
  host: null,
  port: 8097,
  addresses: ['192.168.1.66'],
  txt: { name: instance, fp },
  ttl: 120,
  seenAt,
});
const stranger = (n: number, seenAt = MANUAL_CLOCK_START) => robot(`made-up-${n}`, fingerprint(n % 256), seenAt);

/** What the fleet shows for `sighting` once it is live on the LAN. */
function shown(sighting: TimedSighting) {
  live = [sighting];
  return fleet.peers()[0];
}

it('keeps the fingerprint of a robot added by address when the LAN announces hundreds of others', async () => {
  const peer = await fleet.add({ host: '192.168.1.30' });
  await fleet.recordFingerprint(peer.id, FP_A);
  for (let n = 0; n < 600; n += 1) fleet.sighted(stranger(n));
  const changed = await fleet.recordFingerprint(peer.id, FP_B);
  expect(changed.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
});

it('keeps the fingerprint of a robot seen on the LAN when the LAN announces hundreds of others', () => {
  fleet.sighted(robot('Desk robot', FP_A));
  for (let n = 0; n < 600; n += 1) fleet.sighted(stranger(n, MANUAL_CLOCK_START + 60_000));
  const impostor = robot('Desk robot', FP_B, MANUAL_CLOCK_START + 120_000);
  fleet.sighted(impostor);
  expect(shown(impostor)?.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
});

it('remembers a new robot in the place of one not seen for a month once the memory is full', () => {
  for (let n = 0; n < MAX_FINGERPRINTS; n += 1) fleet.sighted(stranger(n));
  const soon = MANUAL_CLOCK_START + 3600_000;
  fleet.sighted(robot('New robot', FP_A, soon));
  const notRemembered = robot('New robot', FP_B, soon + 60_000);
  fleet.sighted(notRemembered);
  expect(shown(notRemembered)?.fingerprintChange).toBeNull();

  const later = MANUAL_CLOCK_START + STALE_MS;
  fleet.sighted(stranger(0, later));
  fleet.sighted(robot('New robot', FP_A, later));
  const changed = robot('New robot', FP_B, later + 60_000);
  fleet.sighted(changed);
  expect(shown(changed)?.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
  // The stranger seen again kept its place; one of those not seen since made room.
  const again = robot('made-up-0', FP_B, later + 60_000);
  fleet.sighted(again);
  expect(shown(again)?.fingerprintChange).toMatchObject({ previous: fingerprint(0), current: FP_B });
});

it("keeps a robot's changed fingerprint flagged, and written once, while it and an impostor take turns", async () => {
  fleet.sighted(robot('Desk robot', FP_A));
  for (let n = 1; n <= 1000; n += 1)
    fleet.sighted(robot('Desk robot', n % 2 ? FP_B : FP_A, MANUAL_CLOCK_START + n * 1000));
  const real = robot('Desk robot', FP_A, MANUAL_CLOCK_START + 2_000_000);
  fleet.sighted(real);
  expect(shown(real)?.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
  expect(records.filter((r) => r.msg === 'a robot on the LAN shows a new certificate fingerprint')).toHaveLength(1);
  const trusted = await fleet.trust(lanPeerId(real));
  expect(trusted.fingerprintChange).toBeNull();
});

it('lists a robot seen on the LAN at its address on this link, not at the first of its addresses', async () => {
  const { log } = recordingLog();
  const store = createFleetStore({ dataDir: dir, log });
  await store.load();
  const onLink = (address: string) => address.startsWith('192.168.1.');
  const sighting = { ...robot('Desk robot', FP_A), addresses: ['172.17.0.1', '10.8.0.5', '192.168.1.30'] };
  const lan = createFleet({ store, sightings: () => [sighting], now: () => MANUAL_CLOCK_START, log, onLink });
  expect(lan.peers()[0]?.host).toBe('192.168.1.30');
});
