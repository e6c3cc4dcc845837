/**
 * Crash safety: a writer is killed with SIGKILL at random moments while credentials,
 * sessions, settings and log rows are written; after every kill each store loads again and
 * nothing that was acknowledged as durable is missing. A kill can land after a write became
 * durable and before its ack was printed; the writer goes on past such writes
 * (server/testing/crash-writer.ts), and the first round starts with one left behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { systemClock } from '../clock.ts';
import { createCredentialStore } from '../auth/credential-store.ts';
import { createSessionStore } from '../auth/sessions.ts';
import { silentLog } from '../log.ts';
import { crashCredential } from '../testing/crash-credential.ts';
import { seeded } from '../testing/fuzz.ts';
import { createJsonDocument } from './json-document.ts';
import { createJsonLines } from './json-lines.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cockpit-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Acks {
  credential: Set<string>;
  session: Set<string>;
  settings: number;
  log: Set<number>;
}

function runAndKill(killAfterMs: number, acks: Acks): Promise<void> {
  return new Promise((resolve, reject) => {
    // Node itself with the tsx loader: killing the tsx CLI would orphan the writer it starts.
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/crash-writer.ts', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        const [, store, value] = line.split(' ');
        if (store === 'credential') acks.credential.add(`cred-${value}`);
        if (store === 'session') acks.session.add(value as string);
        if (store === 'settings') acks.settings = Math.max(acks.settings, Number(value));
        if (store === 'log') acks.log.add(Number(value));
      }
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve()
        : reject(new Error(`writer exited (code ${code}, signal ${signal}):\n${stderr}`)),
    );
  });
}

it('loses nothing acknowledged when killed mid-write, again and again', async () => {
  const rng = seeded(7);
  const acks: Acks = { credential: new Set(), session: new Set(), settings: 0, log: new Set() };
  // What a kill between a credential's durable write and its ack leaves: `cred-1` stored, never acknowledged.
  const seed = await createCredentialStore({ dataDir, clock: systemClock, log: silentLog });
  await seed.add(crashCredential(1), { onlyIfEmpty: true });
  for (let round = 0; round < 8; round += 1) await runAndKill(30 + Math.floor(rng() * 250), acks);

  const credentials = await createCredentialStore({ dataDir, clock: systemClock, log: silentLog });
  const stored = new Set(credentials.all().map((c) => c.id));
  expect([...acks.credential].filter((id) => !stored.has(id))).toEqual([]);
  const sessions = await createSessionStore({ dataDir, clock: systemClock, log: silentLog, maxSessions: 100_000 });
  expect([...acks.session].filter((id) => !sessions.validate(id))).toEqual([]);
  const settings = createJsonDocument<{ counter: number }>({
    file: join(dataDir, 'settings-crash.json'),
    defaults: () => ({ counter: 0 }),
    validate: (u) => u as { counter: number },
    log: silentLog,
  });
  expect((await settings.load()).counter).toBeGreaterThanOrEqual(acks.settings);
  const log = createJsonLines<{ n: number }>({
    file: join(dataDir, 'agent-log-crash.jsonl'),
    maxRows: 100_000,
    validate: (u) => u as { n: number },
    log: silentLog,
  });
  const rows = new Set((await log.load()).map((r) => r.n));
  expect([...acks.log].filter((n) => !rows.has(n))).toEqual([]);
  expect(acks.log.size).toBeGreaterThan(10);
  // Nothing was set aside as corrupt: every kill left whole files behind.
  expect(readdirSync(dataDir).filter((f) => f.includes('.corrupt-'))).toEqual([]);
}, 120_000);
