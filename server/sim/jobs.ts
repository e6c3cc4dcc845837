/**
 * Background jobs of the daemon routes (docs/daemon.md, "Motors and lifecycle"): one at a time, each polled at
 * /api/apps/job-status/{id} as `{command, status, logs}`. A job reports `done` even when the
 * daemon ends up in error, as the real register does.
 */
import { randomUUID } from 'node:crypto';

export type JobCommand = 'daemon-start' | 'daemon-stop' | 'daemon-restart';

export interface JobInfo {
  command: JobCommand;
  status: 'pending' | 'in_progress' | 'done' | 'failed';
  logs: string[];
}

export interface Jobs {
  readonly busy: boolean;
  /** Starts `work` as a job; undefined when another one is in flight. */
  run(command: JobCommand, work: () => Promise<void>): string | undefined;
  get(id: string): JobInfo | undefined;
}

export function createJobs(): Jobs {
  const jobs = new Map<string, JobInfo>();
  let busy = false;

  const settle = (info: JobInfo, status: 'done' | 'failed', line: string): void => {
    info.status = status;
    info.logs = [...info.logs, line];
  };

  return {
    get busy() {
      return busy;
    },
    run(command, work) {
      if (busy) return undefined;
      const id = randomUUID();
      const info: JobInfo = { command, status: 'in_progress', logs: [] };
      jobs.set(id, info);
      busy = true;
      work()
        .then(
          () => settle(info, 'done', `Job '${command}' completed successfully`),
          (error: unknown) => settle(info, 'failed', `Job '${command}' failed with error: ${String(error)}`),
        )
        .finally(() => {
          busy = false;
        });
      return id;
    },
    get: (id) => jobs.get(id),
  };
}
