/**
 * A relayed invoke that outlasts the requester's wait becomes a background task: the envelope is
 * answered in the window with a "still working" note naming its `task_*` ticket, and the finished
 * answer goes to POST /api/devices/task-result, which the platform deposits under that ticket,
 * notes on the owner's event ring and pushes once (docs/platform.md, "Other device routes"). The requester (or the
 * owner, from the push) redeems it with use_device `result`. Without this the answer would be
 * a late reply the requester stopped waiting for.
 */
import type { DeviceRoutes } from './device-routes.ts';
import { LIMITS, TASK_ID_PATTERN } from './limits.ts';
import { offloadText } from './media-offload.ts';
import type { ReplyPayload } from './reply-fit.ts';
import { sleep } from './scheduler.ts';
import type { Outcome, PlatformLog, Scheduler } from './types.ts';

/** Waits between task-result attempts after a transient fault, as for the PATCH reply. */
const RETRY_MS = [2_000, 5_000];

export interface RelayTaskDeps {
  taskResult: DeviceRoutes['taskResult'];
  media: DeviceRoutes['media'];
  scheduler: Scheduler;
  log: PlatformLog;
}

/** The task id of an envelope: its id in the allowed characters, at most 48 of them. */
export function taskIdOf(envelopeId: string): string | null {
  const id = envelopeId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48);
  return TASK_ID_PATTERN.test(id) ? id : null;
}

/** The ticket the platform files a task result under: task_<first 8 hex of the device id>_<taskId>. */
export function taskTicket(deviceId: string, taskId: string): string {
  return `task_${deviceId.replace(/-/g, '').slice(0, 8)}_${taskId}`;
}

/** The in-window answer for a turn that goes on in the background. */
export function stillWorkingReply(ticket: string, afterMs: number): ReplyPayload {
  return {
    result:
      `Still working on it after ${Math.round(afterMs / 1000)} s; the answer will follow as ` +
      `${ticket} (use_device result with that envelope id).`,
  };
}

/** The reply as one text for the task result: pictures as their URLs, at most 7000 characters. */
async function resultText(deps: RelayTaskDeps, reply: ReplyPayload): Promise<string> {
  const text = [reply.result, ...(reply.images ?? []).map((image) => `Picture: ${image.url}`)].join('\n');
  if (text.length <= LIMITS.taskResultChars) return text;
  // Too long for the deposit: stored as media like a long relay reply, else cut with a note.
  const offloaded = await offloadText(deps.media, text, LIMITS.taskResultChars - 2);
  if (offloaded.text.length <= LIMITS.taskResultChars) return offloaded.text;
  const note = '\n… [cut to fit the task result]';
  return text.slice(0, LIMITS.taskResultChars - note.length) + note;
}

/** Posts the finished answer under the envelope's task id, retrying transient faults. */
export async function postTaskResult(
  deps: RelayTaskDeps,
  taskId: string,
  prompt: string,
  reply: ReplyPayload,
): Promise<Outcome<{ ticket: string }>> {
  const input = {
    taskId,
    summary: Array.from(prompt.replace(/\s+/g, ' ').trim()).slice(0, LIMITS.taskSummaryChars).join(''),
    result: await resultText(deps, reply),
  };
  let outcome = await deps.taskResult(input);
  for (const wait of RETRY_MS) {
    if (outcome.ok || !outcome.failure.retryable) break;
    await sleep(deps.scheduler, wait);
    outcome = await deps.taskResult(input);
  }
  if (!outcome.ok) deps.log.warn('task result was not delivered', { taskId, error: outcome.failure.message });
  return outcome;
}
