/** Words and numbers of the apps page: uptime, run states, job progress. */
import type { AppJob, AppRunState, StoreApp } from '../../../../server/contract/index.ts';
import type { Tone } from '../../lib/ui/tone.ts';

/** `42 s`, `3 min 05 s`, `2 h 07 min`. */
export function uptimeText(sinceIso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(sinceIso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

export const RUN_STATE: Readonly<Record<AppRunState, { label: string; tone: Tone }>> = Object.freeze({
  starting: { label: 'Starting', tone: 'warn' },
  running: { label: 'Running', tone: 'ok' },
  stopping: { label: 'Stopping', tone: 'warn' },
  done: { label: 'Finished', tone: 'idle' },
  error: { label: 'Crashed', tone: 'bad' },
});

const VERB: Record<AppJob['command'], string> = { install: 'Installing', remove: 'Removing', update: 'Updating' };
const DONE: Record<AppJob['command'], string> = { install: 'Installed', remove: 'Removed', update: 'Updated' };

export function jobHeadline(job: AppJob): string {
  if (job.status === 'done') return `${DONE[job.command]} ${job.app}`;
  if (job.status === 'failed') return `${VERB[job.command]} ${job.app} failed`;
  return `${VERB[job.command]} ${job.app}…`;
}

export function jobTone(job: AppJob): Tone {
  return job.status === 'failed' ? 'bad' : job.status === 'done' ? 'ok' : 'warn';
}

/**
 * What the store section says when it offers nothing to install; null when it offers some. The
 * daemon reads the store from Hugging Face and answers an empty list when it cannot reach it
 * (docs/daemon.md, "What daemon 1.13.0 does"), and the store's read may fail: neither is "every app
 * of the store is installed".
 */
export function storeNote(store: readonly StoreApp[], read: boolean, problem: string): string | null {
  if (problem) return `The store could not be read: ${problem}`;
  if (!read) return 'Reading the store…';
  if (store.length === 0) return 'The store lists no apps: the robot reads it from Hugging Face, so it may be offline.';
  return store.every((a) => a.installed) ? 'Every app of the store is installed.' : null;
}
