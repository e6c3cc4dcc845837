/**
 * Handles one claimed envelope end to end: parse, act, fit the reply into 8192 bytes and
 * PATCH it (issue 10, item 3). No path leaves an envelope unanswered (at-most-once delivery,
 * reference-notes §2.4); a reply that cannot be sent after retries is logged and counted.
 */
import type { DeviceApi } from './device-api.ts';
import type { DeviceRoutes } from './device-routes.ts';
import {
  errorReply,
  markFleetPrompt,
  notifiedReply,
  parseEnvelope,
  resultReply,
  unsupportedReply,
  type FleetImage,
  type FleetTurn,
  type FleetTurnResult,
  type PlatformNotification,
} from './envelopes.ts';
import { PATHS } from './limits.ts';
import { fitReply, type ReplyImage, type ReplyPayload } from './reply-fit.ts';
import { sleep } from './scheduler.ts';
import type { Outcome, PlatformLog, Scheduler } from './types.ts';

/** A claimed relay row as the poll returns it. */
export interface RelayMessage {
  id: string;
  payload: unknown;
}

/** Dependencies of the handler; the runner and the notifier are the console's (ARCHITECTURE §2). */
export interface RelayHandlerDeps {
  runFleetTurn: (turn: FleetTurn) => Promise<FleetTurnResult>;
  notify: (notification: PlatformNotification) => void | Promise<void>;
  media: DeviceRoutes['media'];
  api: DeviceApi;
  scheduler: Scheduler;
  log: PlatformLog;
  /** Budget of one fleet turn; the platform bounds a device turn at 90 s ("Limits"). */
  turnTimeoutMs: number;
  /** Called once per envelope after its reply was attempted. */
  onHandled: (replied: boolean) => void;
}

/** Waits between reply attempts after a transient fault. */
const REPLY_RETRY_MS = [2_000, 5_000];

function formatOf(contentType: string): string {
  return contentType.split('/')[1] ?? contentType;
}

/** Stores images through POST /api/media; the reply carries worker /media/<key> URLs (§2.4). */
async function uploadImages(
  deps: RelayHandlerDeps,
  images: FleetImage[],
): Promise<{ refs: ReplyImage[]; notes: string[] }> {
  const refs: ReplyImage[] = [];
  const notes: string[] = [];
  for (const image of images) {
    const stored = await deps.media(image);
    if (stored.ok) refs.push({ url: stored.value.url, format: formatOf(image.contentType) });
    else notes.push(`[image not sent: ${stored.failure.message}]`);
  }
  return { refs, notes };
}

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
  const { refs, notes } = await uploadImages(deps, settled.result.images ?? []);
  return resultReply([settled.result.text, ...notes].join('\n'), refs);
}

async function raiseNotification(deps: RelayHandlerDeps, notification: PlatformNotification): Promise<ReplyPayload> {
  try {
    await deps.notify(notification);
    return notifiedReply();
  } catch (error) {
    return errorReply(`notification failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function decide(deps: RelayHandlerDeps, message: RelayMessage): Promise<ReplyPayload> {
  const envelope = parseEnvelope(message.payload);
  switch (envelope.type) {
    case 'invoke':
      return runTurn(deps, envelope.prompt, envelope.from);
    case 'notify':
      return raiseNotification(deps, envelope.notification);
    case 'invalid':
      return errorReply(envelope.reason);
    case 'other':
      return unsupportedReply();
  }
}

/** PATCHes the reply, retrying transient faults: a lost reply is a lost answer. */
async function sendReply(deps: RelayHandlerDeps, inReplyTo: string, payload: string): Promise<Outcome<unknown>> {
  let outcome = await deps.api.call('PATCH', PATHS.relay, { inReplyTo, payload });
  for (const wait of REPLY_RETRY_MS) {
    if (outcome.ok || !outcome.failure.retryable) break;
    await sleep(deps.scheduler, wait);
    outcome = await deps.api.call('PATCH', PATHS.relay, { inReplyTo, payload });
  }
  return outcome;
}

/** Creates the per-envelope handler. */
export function createRelayHandler(deps: RelayHandlerDeps): (message: RelayMessage) => Promise<void> {
  return async (message) => {
    let reply: ReplyPayload;
    try {
      reply = await decide(deps, message);
    } catch (error) {
      reply = errorReply(`the envelope could not be handled: ${String(error)}`);
    }
    // The payload travels as JSON inside a string, measured after serialisation (§2.4).
    const outcome = await sendReply(deps, message.id, fitReply(reply));
    if (!outcome.ok)
      deps.log.warn('relay reply was not delivered', { envelope: message.id, error: outcome.failure.message });
    deps.onHandled(outcome.ok);
  };
}
