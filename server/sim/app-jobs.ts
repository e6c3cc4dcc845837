/**
 * The app store's background jobs (install, remove, update), as the daemon's bg_job_register
 * runs them: any number at once, each `{command, status, logs}` polled at
 * /api/apps/job-status/{id} and streamed on /api/apps/ws/apps-manager/{id}. A job logs its own
 * progress; the register appends `Job '<command>' completed successfully` or
 * `Job '<command>' failed with error: <message>` and settles the status.
 */
import { randomUUID } from 'node:crypto';
import { messageOf } from '../errors.ts';

export type AppJobCommand = 'install' | 'remove' | 'update';

export interface AppJobInfo {
  command: AppJobCommand;
  status: 'pending' | 'in_progress' | 'done' | 'failed';
  logs: string[];
}

/** The job's logger: each line is one log record of the daemon's job logger. */
export type JobLog = (line: string) => void;

export interface AppJobs {
  run(command: AppJobCommand, work: (log: JobLog) => Promise<void>): string;
  get(id: string): AppJobInfo | undefined;
  /** Called after every new log line of the job (the socket's new_log_evt); returns the unsubscribe. */
  watch(id: string, onLog: () => void): () => void;
}

export function createAppJobs(): AppJobs {
  const jobs = new Map<string, { info: AppJobInfo; watchers: Set<() => void> }>();
  return {
    run(command, work) {
      const id = randomUUID();
      const job = { info: { command, status: 'in_progress', logs: [] } as AppJobInfo, watchers: new Set<() => void>() };
      jobs.set(id, job);
      const log: JobLog = (line) => {
        job.info.logs.push(line);
        for (const watcher of job.watchers) watcher();
      };
      // The real register sets the final status before it logs the final line.
      void work(log).then(
        () => {
          job.info.status = 'done';
          log(`Job '${command}' completed successfully`);
        },
        (error: unknown) => {
          job.info.status = 'failed';
          log(`Job '${command}' failed with error: ${messageOf(error)}`);
        },
      );
      return id;
    },
    get: (id) => jobs.get(id)?.info,
    watch(id, onLog) {
      const job = jobs.get(id);
      if (!job) return () => {};
      job.watchers.add(onLog);
      return () => job.watchers.delete(onLog);
    },
  };
}
