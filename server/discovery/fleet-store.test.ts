/**
 * fleet.json read back at start: a damaged entry is dropped alone, and robots added by address
 * are held to the API's rules and bound.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, recordingLog } from '../store/testing/temp-dir.ts';
import { createFleetStore, MAX_MANUAL_PEERS, type KnownFingerprint, type ManualPeer } from './fleet-store.ts';
import { manualPeerId } from './peer-address.ts';

const FP = Array.from({ length: 32 }, () => 'AA').join(':');
const pin: KnownFingerprint = { fingerprint: FP, change: null, seen: '2026-01-01T00:00:00.000Z' };
const peer = (host: string, port = 8097): ManualPeer => ({
  id: manualPeerId(host, port),
  host,
  port,
  httpsPort: 8098,
  addedAt: '2026-01-01T00:00:00.000Z',
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

async function loaded(record: unknown) {
  await writeFile(join(dir, 'fleet.json'), JSON.stringify(record));
  const { log, records } = recordingLog();
  const store = createFleetStore({ dataDir: dir, log });
  return { record: await store.load(), records, files: await readdir(dir) };
}

it('drops a damaged entry alone and keeps the robots added by address and the fingerprints with it', async () => {
  const good = peer('192.168.1.30');
  const { record, records, files } = await loaded({
    manual: [good, { ...peer('192.168.1.31'), port: 0 }],
    fingerprints: { [good.id]: pin, 'lan-0123456789abcdef': pin, 'lan-fedcba9876543210': { fingerprint: 42 } },
  });
  expect(record.manual).toEqual([good]);
  expect(record.fingerprints).toEqual({ [good.id]: pin, 'lan-0123456789abcdef': pin });
  expect(files).toEqual(['fleet.json']);
  const warning = records.find((r) => r.level === 'warn' && /damaged entries/.test(r.msg));
  expect(warning).toMatchObject({ manual: 1, fingerprints: 1 });
  expect(String(warning?.['dropped'])).toContain('192.168.1.31');
});

it('holds stored robots added by address to the rules of the API, and to at most MAX_MANUAL_PEERS', async () => {
  const good = peer('robot.local');
  const bad = [
    peer('robot.local/../x'),
    peer('user@evil.example'),
    peer('Robot.LOCAL'),
    peer('fe80::1%eth0'),
    { ...peer('192.168.1.32'), id: 'lan-0123456789abcdef' },
    good,
  ];
  const many = Array.from({ length: MAX_MANUAL_PEERS + 5 }, (_, n) => peer(`10.0.0.${n + 1}`));
  const { record } = await loaded({ manual: [good, ...bad, ...many], fingerprints: {} });
  expect(record.manual[0]).toEqual(good);
  expect(record.manual).toHaveLength(MAX_MANUAL_PEERS);
  expect(record.manual.slice(1)).toEqual(many.slice(0, MAX_MANUAL_PEERS - 1));
});

it('sets aside a file that is not a fleet record at all', async () => {
  const { record, files } = await loaded({ manual: 'none', fingerprints: {} });
  expect(record).toEqual({ manual: [], fingerprints: {} });
  expect(files).toEqual([expect.stringMatching(/^fleet\.json\..*corrupt/)]);
});
