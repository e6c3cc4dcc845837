/**
 * `npm run record-fixtures`: installs the pinned real daemon if needed, runs it, sends it the
 * probe (server/real-daemon/probe-cases.ts) and writes what it answered to
 * server/sim/recorded/real-daemon.json, the reference the simulator's tests compare against.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REAL_DAEMON_VERSION } from './pin.ts';
import { probeDaemon } from './probe.ts';
import { startRealDaemon } from './process.ts';
import { ensureInstalled } from './venv.ts';
import { messageOf } from '../errors.ts';

export const RECORDED_FIXTURES = fileURLToPath(new URL('../sim/recorded/real-daemon.json', import.meta.url));

async function main(): Promise<void> {
  const paths = await ensureInstalled({ version: REAL_DAEMON_VERSION });
  const daemon = await startRealDaemon({ paths });
  try {
    const probe = await probeDaemon(daemon.url);
    if (probe.version !== REAL_DAEMON_VERSION) {
      throw new Error(`the daemon reports ${probe.version}, the pin is ${REAL_DAEMON_VERSION}`);
    }
    const recorded = { recordedAt: new Date().toISOString(), flags: 'mockup-sim, no-media, headless', ...probe };
    mkdirSync(dirname(RECORDED_FIXTURES), { recursive: true });
    writeFileSync(RECORDED_FIXTURES, `${JSON.stringify(recorded, null, 1)}\n`);
    process.stdout.write(`record-fixtures: ${probe.answers.length} answers of reachy-mini ${probe.version} → ${RECORDED_FIXTURES}\n`);
  } finally {
    await daemon.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`record-fixtures: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
