import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Service } from 'bonjour-service';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { createSetupStore, defaultRobotName, parseRobotName } from './setup-store.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';
import { COCKPIT_SERVICE } from './txt-record.ts';

/** The instance name other hosts read from this cockpit's announcement under `name`. */
function advertisedAs(name: string): string {
  const service = new Service({ name, type: COCKPIT_SERVICE, port: 8097, host: 'robot.local', txt: { name } }, () => {}, () => {});
  const packet = dnsPacket.decode(dnsPacket.encode({ type: 'response', answers: service.records() as DnsRecord[] }));
  const ptr = (packet as { answers: DnsRecord[] }).answers.find((a) => a.type === 'PTR');
  return String(ptr?.data).replace(/\._robot-cockpit\._tcp\.local$/, '');
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
});

describe('setup store', () => {
  it("stands in the host's name until named, keeps the name 0600, and re-advertises on a rename only", async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'desk-pc.lan' });
    await store.load();
    expect(store.name()).toBe('desk-pc');
    const renamed: string[] = [];
    store.onChange((r) => renamed.push(r.name ?? ''));
    await store.update({ guide: 'dismissed' });
    await store.update({ name: 'Desk robot' });
    await store.update({ guide: 'open' });
    expect(renamed).toEqual(['Desk robot']);
    const file = join(temp.dir, 'robot.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ name: 'Desk robot', guide: 'open' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('starts over from defaults when the file is not a valid record', async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    await writeFile(join(temp.dir, 'robot.json'), JSON.stringify({ name: 'x'.repeat(500), guide: 'open' }));
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'pc' });
    await store.load();
    expect(store.get()).toEqual({ name: null, guide: 'open' });
    expect(defaultRobotName('\u0007')).toBe('Robot Cockpit');
  });

  it("refuses a name past one DNS label's 63 bytes, and cuts one stored before to fit", async () => {
    expect(parseRobotName('é'.repeat(31) + 'x')).toBe('é'.repeat(31) + 'x');
    expect(() => parseRobotName('é'.repeat(32))).toThrow(/63 bytes/);
    expect(() => parseRobotName('🤖'.repeat(16))).toThrow(/63 bytes/);
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    await writeFile(join(temp.dir, 'robot.json'), JSON.stringify({ name: 'é'.repeat(63), guide: 'finished' }));
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'pc' });
    await store.load();
    expect(store.get().guide).toBe('finished');
    expect(advertisedAs(store.name())).toBe('é'.repeat(31));
  });

  it('keeps the guide and the name stored from 63 emoji, cut to fit, across a restart', async () => {
    const temp = await makeTempDir();
    cleanup = temp.cleanup;
    await writeFile(join(temp.dir, 'robot.json'), JSON.stringify({ name: '🤖'.repeat(63), guide: 'dismissed' }));
    const store = createSetupStore({ dataDir: temp.dir, log: silentLog, hostName: 'pc' });
    await store.load();
    expect(store.get().guide).toBe('dismissed');
    expect(store.name()).toBe('🤖'.repeat(15));
  });
});
