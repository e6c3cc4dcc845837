/**
 * WS /api/apps/ws/apps-manager/{job_id}, after the daemon's bg_job_register.ws_poll_info: on each
 * new log record of the job, every line not yet sent goes out as a text frame, then one JobInfo
 * JSON `{command, status, logs: <those lines>}`; after the frame that shows `done` or `failed`
 * the socket closes. Like the real one it waits for the next record before sending anything, so a
 * client that connects after the job ended hears nothing (it must read job-status as well). An
 * unknown id gets `{"error": "Job ID not found"}` and a close.
 */
import type { WebSocket } from 'ws';
import type { AppJobs } from './app-jobs.ts';

export const APPS_JOB_SOCKET_PREFIX = '/api/apps/ws/apps-manager/';

export function openAppJobSocket(jobs: AppJobs, ws: WebSocket, jobId: string): void {
  const job = jobs.get(jobId);
  if (!job) {
    ws.send(JSON.stringify({ error: 'Job ID not found' }));
    ws.close();
    return;
  }
  let sent = 0;
  const flush = (): void => {
    if (ws.readyState !== ws.OPEN) return;
    const fresh = job.logs.slice(sent);
    if (fresh.length === 0) return;
    for (const line of fresh) ws.send(line);
    sent = job.logs.length;
    ws.send(JSON.stringify({ command: job.command, status: job.status, logs: fresh }));
    if (job.status === 'done' || job.status === 'failed') {
      unwatch();
      ws.close();
    }
  };
  // The real handler wakes on an asyncio event: records logged together arrive in one batch.
  let queued = false;
  const unwatch = jobs.watch(jobId, () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      flush();
    });
  });
  ws.on('close', unwatch);
  ws.on('error', () => ws.terminate());
}
