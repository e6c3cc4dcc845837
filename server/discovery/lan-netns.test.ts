/**
 * Two cockpits on two network namespaces joined by a veth pair, made and removed here (root and
 * iproute2 needed, as `.ci/run` provides): each advertises `_robot-cockpit._tcp` and finds the
 * other with its name, kind, version, HTTPS port and certificate fingerprint. No traffic leaves
 * the namespaces. B then moves to another address, and A finds it there; the link then goes away
 * and comes back, and A finds B on it again. Where namespaces cannot be made the test is skipped with the reason; the
 * record encoding is still covered on loopback by txt-record.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.ts';
import type { CockpitIdentity, FleetPeer } from '../contract/discovery.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');
const TAG = `rc${process.pid % 100000}`;
const NODES = [
  { ns: `${TAG}a`, veth: `${TAG}va`, address: '10.231.77.1', name: 'Alpha desk' },
  { ns: `${TAG}b`, veth: `${TAG}vb`, address: '10.231.77.2', name: 'Bravo desk' },
] as const;
/** The address B moves to (a lease renewed to another address), after A has found it. */
const MOVED = '10.231.77.3';

interface Report {
  identity: CockpitIdentity;
  advertising: { on: boolean; localName: string | null };
  peers: FleetPeer[];
}

const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });

function must(...args: string[]): void {
  const r = ip(...args);
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr || r.error?.message}`);
}

/** The veth pair between the namespaces, each end with `addresses` (A's, B's). */
function makeLink(addresses: readonly [string, string]): void {
  must('link', 'add', NODES[0].veth, 'netns', NODES[0].ns, 'type', 'veth', 'peer', 'name', NODES[1].veth, 'netns', NODES[1].ns);
  NODES.forEach((node, i) => {
    const inNs = (...args: string[]) => must('-n', node.ns, ...args);
    inNs('addr', 'add', `${addresses[i]}/24`, 'dev', node.veth);
    inNs('link', 'set', node.veth, 'up');
    // Multicast has no default route in an empty namespace: send it down the veth.
    inNs('route', 'add', '224.0.0.0/4', 'dev', node.veth);
  });
}

/** Makes the namespaces and the link, or says why it cannot. */
function makeNetwork(): string | undefined {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  const probe = ip('netns', 'add', NODES[0].ns);
  if (probe.status !== 0) return `ip netns add failed: ${(probe.stderr || probe.error?.message || '').trim()}`;
  try {
    must('netns', 'add', NODES[1].ns);
    for (const node of NODES) must('-n', node.ns, 'link', 'set', 'lo', 'up');
    makeLink([NODES[0].address, NODES[1].address]);
  } catch (err) {
    removeNetwork();
    return (err as Error).message;
  }
  return undefined;
}

function removeNetwork(): void {
  for (const node of NODES) ip('netns', 'del', node.ns);
}

interface Node {
  child: ChildProcess;
  dataDir: string;
  latest(): Report | undefined;
  output(): string;
}

function startNode(node: (typeof NODES)[number]): Node {
  const dataDir = mkdtempSync(join(tmpdir(), 'cockpit-lan-'));
  writeFileSync(join(dataDir, 'robot.json'), JSON.stringify({ name: node.name, guide: 'finished' }), { mode: 0o600 });
  const child = spawn('ip', ['netns', 'exec', node.ns, process.execPath, TSX_CLI, 'server/discovery/testing/lan-node.ts', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let latest: Report | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) latest = JSON.parse(line) as Report;
  });
  child.stderr?.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-20_000)));
  return { child, dataDir, latest: () => latest, output: () => err };
}

/** The one polling helper (server/testing/eventually.ts), failing with what both cockpits printed. */
async function until<T>(read: () => T | undefined, timeoutMs: number, what: string, nodes: Node[]): Promise<T> {
  try {
    return await eventually(read, { what, timeoutMs, intervalMs: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; output:\n${nodes.map((n) => n.output()).join('\n---\n')}`);
  }
}

const nodes: Node[] = [];
afterAll(async () => {
  await Promise.all(
    nodes.map(
      (n) =>
        new Promise<void>((done) => {
          if (n.child.exitCode !== null) return done();
          n.child.once('exit', () => done());
          n.child.kill('SIGTERM');
        }),
    ),
  );
  for (const n of nodes) rmSync(n.dataDir, { recursive: true, force: true });
  removeNetwork();
});

describe('LAN discovery between two namespaces', () => {
  it('each cockpit advertises itself and finds the other', { timeout: 120_000 }, async (ctx) => {
    const why = makeNetwork();
    if (why) {
      ctx.skip(`network namespaces unavailable: ${why}`);
      return;
    }
    nodes.push(...NODES.map(startNode));
    const [a, b] = nodes as [Node, Node];
    const found = (self: Node, other: (typeof NODES)[number]) =>
      self.latest()?.peers.find((p) => p.service === 'cockpit' && p.name === other.name && p.fingerprint !== null);
    const bSeenByA = await until(() => found(a, NODES[1]), 90_000, 'A finding B', nodes);
    const aSeenByB = await until(() => found(b, NODES[0]), 90_000, 'B finding A', nodes);

    const bIdentity = b.latest()?.identity;
    expect(bSeenByA).toMatchObject({
      source: 'lan',
      kind: 'desktop',
      host: NODES[1].address,
      port: 8097,
      httpsPort: 8098,
      fingerprint: bIdentity?.fingerprint,
      fingerprintChange: null,
    });
    expect(bSeenByA.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(aSeenByB).toMatchObject({ host: NODES[0].address, fingerprint: a.latest()?.identity.fingerprint });
    // Each answers to its own name under .local once its first announcement is out, and never lists itself.
    const advertised = await until(() => (a.latest()?.advertising.on ? a.latest()?.advertising : undefined), 30_000, 'A announcing', nodes);
    expect(advertised).toMatchObject({ on: true, localName: 'alpha-desk.local' });
    expect(a.latest()?.peers.filter((p) => p.name === NODES[0].name)).toEqual([]);

    // B's address changes: A lists B at the new one, where B kept announcing the one it started with.
    must('-n', NODES[1].ns, 'addr', 'del', `${NODES[1].address}/24`, 'dev', NODES[1].veth);
    must('-n', NODES[1].ns, 'addr', 'add', `${MOVED}/24`, 'dev', NODES[1].veth);
    // The link's last address gone took the multicast route with it.
    must('-n', NODES[1].ns, 'route', 'add', '224.0.0.0/4', 'dev', NODES[1].veth);
    await until(() => found(a, NODES[1])?.host === MOVED, 60_000, 'A finding B at its new address', nodes);

    // The link goes away (an adapter unplugged) and comes back with the same addresses: each
    // joins the mDNS group on it again, where A stayed deaf on it and never found B again.
    must('-n', NODES[0].ns, 'link', 'del', NODES[0].veth);
    await until(() => (found(a, NODES[1]) ? undefined : true), 60_000, 'A losing B with the link', nodes);
    makeLink([NODES[0].address, MOVED]);
    await until(() => found(a, NODES[1]), 60_000, 'A finding B on the link come back', nodes);
  });
});
