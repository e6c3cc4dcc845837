/**
 * The fleet's fingerprint memory under a flood of made-up robots on the LAN.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MANUAL_CLOCK_START } from '../testing/manual-clock.ts';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { createFleet, type Fleet } from './fleet.ts';
import { createFleetStore } from './fleet-store.ts';
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

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  const { log } = recordingLog();
  const store = createFleetStore({ dataDir: dir, log });
  await store.load();
  fleet = createFleet({ store, sightings: () => [], now: () => MANUAL_CLOCK_START, log });
});
afterEach(() => cleanup());

const stranger = (n: number): TimedSighting => ({
  service: 'cockpit',
  instance: `made-up-${n}`,
  host: null,
  port: 8097,
  addresses: ['192.168.1.66'],
  txt: { name: `made-up-${n}`, fp: fingerprint(n % 256) },
  ttl: 120,
  seenAt: MANUAL_CLOCK_START,
});

it('keeps the fingerprint of a robot added by address when the LAN announces hundreds of others', async () => {
  const peer = await fleet.add({ host: '192.168.1.30' });
  await fleet.recordFingerprint(peer.id, FP_A);
  for (let n = 0; n < 600; n += 1) fleet.sighted(stranger(n));
  const changed = await fleet.recordFingerprint(peer.id, FP_B);
  expect(changed.fingerprintChange).toMatchObject({ previous: FP_A, current: FP_B });
});
