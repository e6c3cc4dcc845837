/**
 * A process that writes to every persistent store in a loop and prints `ack <store> <n>` once
 * each write is durable. The crash-safety test kills it with SIGKILL at random moments.
 * Usage: tsx server/testing/crash-writer.ts <dataDir> <start>
 */
import { join } from 'node:path';
import { systemClock } from '../clock.ts';
import { createCredentialStore } from '../auth/credential-store.ts';
import { createSessionStore } from '../auth/sessions.ts';
import { silentLog } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { createJsonLines } from '../store/json-lines.ts';

const [dataDir, startArg] = process.argv.slice(2) as [string, string];
const start = Number(startArg);
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
await log.load();
process.stdout.write('ready\n');

for (let n = start; ; n += 1) {
  await Promise.all([
    credentials
      .add(
        {
          id: `cred-${n}`,
          publicKey: 'AQID',
          counter: 0,
          transports: [],
          label: `key ${n}`,
          createdAt: new Date().toISOString(),
          lastUsedAt: null,
          deviceType: 'singleDevice',
          backedUp: false,
        },
        { onlyIfEmpty: false },
      )
      .then(() => ack('credential', n)),
    sessions.create({ credentialId: `cred-${n}`, ttlSeconds: 3600 }).then((s) => ack('session', s.id)),
    settings.save({ counter: n }).then(() => ack('settings', n)),
    log.append({ n }).then(() => ack('log', n)),
  ]);
}
