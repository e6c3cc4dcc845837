/**
 * Handles one claimed envelope end to end: parse, act, fit the reply into 8192 bytes and
 * PATCH it. Pictures travel as /api/media URLs, and so does a text too long
 * for the reply (docs/platform.md, "Limits"); trimming is the last resort when media is refused. No path leaves an envelope unanswered (at-most-once delivery,
 * docs/platform.md, "Devices"); a reply that cannot be sent after retries is logged and counted.
 * An invoke still running after `ackMs` is answered "still working" and finishes as a task
 * result (relay-task.ts).
 */
import type { PlatformNotice } from '../server/contract/index.ts';
import type { DeviceApi } from './device-api.ts';
import type { DeviceRoutes } from './device-routes.ts';
import {
  errorReply,
  markFleetPrompt,
  notifiedReply,
  parseEnvelope,
  resultReply,
  unsupportedReply,
  type FleetTurn,
  type FleetTurnResult,
} from './envelopes.ts';
import { LIMITS, PATHS, WORKER_ERRORS } from './limits.ts';
import { tookUnreadably } from './platform-http.ts';
import { offloadText, uploadImages } from './media-offload.ts';
import { fitReply, jsonBytes, type ReplyPayload } from './reply-fit.ts';
import { postTaskResult, stillWorkingReply, taskIdOf, taskTicket } from './relay-task.ts';
import { sleep } from './scheduler.ts';
import type { Outcome, PlatformLog, Scheduler } from './types.ts';

/** A claimed relay row as the poll returns it. */
export interface RelayMessage {
  id: string;
  payload: unknown;
}

/** Dependencies of the handler; the runner and the notifier are the console's (docs/architecture.md, "Folders and the direction of imports"). */
export interface RelayHandlerDeps {
  runFleetTurn: (turn: FleetTurn) => Promise<FleetTurnResult>;
  notify: (notification: PlatformNotice) => void | Promise<void>;
  media: DeviceRoutes['media'];
  api: DeviceApi;
  scheduler: Scheduler;
  log: PlatformLog;
  /** Budget of one fleet turn; the platform bounds a device turn at 90 s ("Limits"). */
  turnTimeoutMs: number;
  /** After this a running turn is answered in the requester's window and goes on as a task. */
  ackMs: number;
  taskResult: DeviceRoutes['taskResult'];
  /** Called once per envelope after its reply was attempted. */
  onHandled: (replied: boolean) => void;
}

/** Waits between reply attempts after a transient fault. */
const REPLY_RETRY_MS = [2_000, 5_000];

/** Runs the fleet turn within its budget; an overrun is aborted and answered with an error. */
async function runTurn(deps: RelayHandlerDeps, prompt: string, from: string | null): Promise<ReplyPayload> {
  const marked = markFleetPrompt(prompt, from);
  const controller = new AbortController();
  let cancelTimer = (): void => undefined;
  const overrun = new Promise<'overrun'>(
    (resolve) => (cancelTimer = deps.scheduler.after(deps.turnTimeoutMs, () => resolve('overrun'))),
  );
  const turn = deps.runFleetTurn({ ...marked, fleet: true, signal: controller.signal }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  const settled = await Promise.race([turn, overrun]);
  cancelTimer();
  if (settled === 'overrun') {
    controller.abort();
    return errorReply(`the turn took longer than ${Math.round(deps.turnTimeoutMs / 1000)} s`);
  }
  if ('error' in settled) return errorReply(settled.error);
  const { refs, notes } = await uploadImages(deps.media, settled.result.images ?? []);
  const text = [settled.result.text, ...notes].join('\n');
  // A text that cannot fit beside its images travels through /api/media as a URL ("Limits").
  if (jsonBytes(resultReply(text, refs)) <= LIMITS.relayPayloadBytes) return resultReply(text, refs);
  const room = LIMITS.relayPayloadBytes - jsonBytes(resultReply('', refs));
  return resultReply((await offloadText(deps.media, text, room)).text, refs);
}

async function raiseNotification(deps: RelayHandlerDeps, notification: PlatformNotice): Promise<ReplyPayload> {
  try {
    await deps.notify(notification);
    return notifiedReply();
  } catch (error) {
    return errorReply(`notification failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Every envelope but an invoke: answered at once. */
async function decide(
  deps: RelayHandlerDeps,
  envelope: Exclude<ReturnType<typeof parseEnvelope>, { type: 'invoke' }>,
): Promise<ReplyPayload> {
  switch (envelope.type) {
    case 'notify':
      return raiseNotification(deps, envelope.notification);
    case 'invalid':
      return errorReply(envelope.reason);
    case 'other':
      return unsupportedReply();
  }
}

/**
 * PATCHes the reply, retrying transient faults: a lost reply is a lost answer. A 2xx with an odd
 * body is a reply the platform took, so it is not sent again (that would be a second answer).
 */
async function sendReply(deps: RelayHandlerDeps, inReplyTo: string, payload: string): Promise<Outcome<unknown>> {
  const patch = async (): Promise<Outcome<unknown>> => {
    const out = await deps.api.call('PATCH', PATHS.relay, { inReplyTo, payload });
    return !out.ok && tookUnreadably(out.failure) ? { ok: true, value: undefined } : out;
  };
  let outcome = await patch();
  for (const wait of REPLY_RETRY_MS) {
    if (outcome.ok || !outcome.failure.retryable) break;
    await sleep(deps.scheduler, wait);
    outcome = await patch();
  }
  return outcome;
}

/** PATCHes one reply for the envelope and counts it as handled. */
async function answer(deps: RelayHandlerDeps, message: RelayMessage, reply: ReplyPayload): Promise<void> {
  // The payload travels as JSON inside a string, measured after serialisation (§2.4).
  const outcome = await sendReply(deps, message.id, fitReply(reply));
  if (!outcome.ok)
    deps.log.warn('relay reply was not delivered', {
      envelope: message.id,
      error: outcome.failure.message,
      // The platform no longer holds the request (swept, or another owner's): final, never retried.
      final: outcome.failure.workerError === WORKER_ERRORS.envelopeNotFound,
    });
  deps.onHandled(outcome.ok);
}

/**
 * Runs the turn; if it is still running after `ackMs`, answers "still working" with its ticket
 * and posts the finished answer as a task result. Resolves once the turn is over either way, so
 * a disconnect still waits for it.
 */
async function invoke(deps: RelayHandlerDeps, message: RelayMessage, prompt: string, from: string | null) {
  const work = runTurn(deps, prompt, from).catch((error: unknown) =>
    errorReply(`the envelope could not be handled: ${String(error)}`),
  );
  const taskId = taskIdOf(message.id);
  const deviceId = deps.api.deviceId();
  if (taskId === null || deviceId === null || deps.ackMs >= deps.turnTimeoutMs)
    return answer(deps, message, await work);
  let cancel = (): void => undefined;
  const ack = new Promise<'ack'>((resolve) => (cancel = deps.scheduler.after(deps.ackMs, () => resolve('ack'))));
  const first = await Promise.race([work, ack]);
  cancel();
  if (first !== 'ack') return answer(deps, message, first);
  const ticket = taskTicket(deviceId, taskId);
  await answer(deps, message, stillWorkingReply(ticket, deps.ackMs));
  const posted = await postTaskResult(deps, taskId, prompt, await work);
  if (posted.ok && posted.value.ticket !== ticket)
    deps.log.warn('the platform filed the task under another ticket', { told: ticket, filed: posted.value.ticket });
}

/** The reply to an envelope claimed after the relay loop stopped (relay-poller.ts): answered, never run. */
export const DECLINED_AFTER_STOP = 'the platform link was switched off as this envelope was claimed; nothing was run';

/** Creates the answer to an envelope that must not run (relay-poller.ts, `decline`). */
export function createRelayDecliner(deps: RelayHandlerDeps): (message: RelayMessage, reason: string) => Promise<void> {
  return (message, reason) => answer(deps, message, errorReply(reason));
}

/** Creates the per-envelope handler. */
export function createRelayHandler(deps: RelayHandlerDeps): (message: RelayMessage) => Promise<void> {
  return async (message) => {
    const envelope = parseEnvelope(message.payload);
    if (envelope.type === 'invoke') return invoke(deps, message, envelope.prompt, envelope.from);
    let reply: ReplyPayload;
    try {
      reply = await decide(deps, envelope);
    } catch (error) {
      reply = errorReply(`the envelope could not be handled: ${String(error)}`);
    }
    await answer(deps, message, reply);
  };
}
