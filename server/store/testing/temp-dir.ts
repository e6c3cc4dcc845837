/**
 * Test helpers: a fresh temp folder per test and a log that records instead of printing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLog } from '../../log.ts';
import type { Log, LogRecord } from '../../log.ts';

/** Makes a fresh folder and returns it with a cleanup function. */
export async function makeTempDir(prefix = 'rc-test-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A Log that keeps every record (debug and up) for assertions. */
export function recordingLog(): { log: Log; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { log: createLog({ level: 'debug', sink: (r) => records.push(r) }), records };
}
