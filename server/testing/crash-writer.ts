/**
 * A process that writes to every persistent store in a loop and prints `ack <store> <n>` once
 * each write is durable. The crash-safety test kills it with SIGKILL at random moments.
 * Usage: tsx server/testing/crash-writer.ts <dataDir>
 */
import { join } from 'node:path';
import { systemClock } from '../clock.ts';
import { createCredentialStore } from '../auth/credential-store.ts';
import { createSessionStore } from '../auth/sessions.ts';
import { silentLog } from '../log.ts';
import { crashCredential } from './crash-credential.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { createJsonLines } from '../store/json-lines.ts';

const [dataDir] = process.argv.slice(2) as [string];
const ack = (store: string, n: number | string) => process.stdout.write(`ack ${store} ${n}\n`);

const credentials = await createCredentialStore({ dataDir, clock: systemClock, log: silentLog });
// No eviction here: the test counts every session it was told is durable.
const sessions = await createSessionStore({ dataDir, clock: systemClock, log: silentLog, maxSessions: 100_000 });
const settings = createJsonDocument<{ counter: number }>({
  file: join(dataDir, 'settings-crash.json'),
  defaults: () => ({ counter: 0 }),
  validate: (u) => (typeof (u as { counter?: unknown })?.counter === 'number' ? (u as { counter: number }) : undefined),
  log: silentLog,
});
await settings.load();
const log = createJsonLines<{ n: number }>({
  file: join(dataDir, 'agent-log-crash.jsonl'),
  maxRows: 100_000,
  validate: (u) => (typeof (u as { n?: unknown })?.n === 'number' ? (u as { n: number }) : undefined),
  log: silentLog,
});
const rows = await log.load();
// Numbers go on from everything already stored, acknowledged or not: a writer killed after a
// write became durable but before its ack was printed left a number the test never heard of,
// and adding `cred-<n>` again would be refused as a passkey already enrolled.
const stored = [
  settings.get().counter,
  ...credentials.all().map((c) => Number(c.id.replace(/^cred-/, '')) || 0),
  ...rows.map((r) => r.n),
];
const start = 1 + stored.reduce((a, b) => Math.max(a, b), 0);
process.stdout.write('ready\n');

for (let n = start; ; n += 1) {
  await Promise.all([
    credentials.add(crashCredential(n), { onlyIfEmpty: false }).then(() => ack('credential', n)),
    sessions.create({ credentialId: `cred-${n}`, ttlSeconds: 3600 }).then((s) => ack('session', s.id)),
    settings.save({ counter: n }).then(() => ack('settings', n)),
    log.append({ n }).then(() => ack('log', n)),
  ]);
}
