/**
 * A job the daemon no longer knows: it keeps its jobs in memory, so after a restart its job socket
 * answers `{"error": "Job ID not found"}` and its job status 404. The simulator answers as the
 * daemon does (server/sim/ws-apps.ts); the cockpit's own daemon client reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppJob } from '../contract/apps.ts';
import { HttpDaemonClient } from '../daemon/daemon-client.ts';
import { silentLog } from '../log.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { eventually } from '../testing/eventually.ts';
import { createJobTracker, LOST_LINE } from './job-tracker.ts';

let sim: SimDaemon;
beforeAll(async () => {
  sim = await startSimDaemon();
});
afterAll(() => sim.close());

describe('a job the daemon no longer knows', () => {
  it('ends failed, saying why, instead of staying in progress', async () => {
    const daemon = new HttpDaemonClient({ baseUrl: sim.url });
    const settled: AppJob[] = [];
    const tracker = createJobTracker({
      apps: daemon.apps,
      publish: () => undefined,
      settled: (job) => settled.push(job),
      log: silentLog,
      pollMs: 10,
    });
    // The id of a job begun before the daemon restarted.
    tracker.track('3f6c1d2e-0000-4000-8000-000000000000', 'install', 'hello_wave');
    await eventually(() => settled.length === 1, { what: 'the job ended' });
    expect(settled[0]).toMatchObject({ status: 'failed', lines: [LOST_LINE] });
    expect(tracker.recent()[0]).toMatchObject({ status: 'failed' });
    tracker.close();
    await daemon.close();
  });
});
