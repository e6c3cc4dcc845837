/**
 * The daemon part of the latched stop. There is no "stop all" route (docs/daemon.md, "Moves"), so:
 * list /running and stop each move, in batches, then list again; a move started during the
 * first pass (or refused by a full write queue) is caught by the next. Three passes at most,
 * and no second pass once the daemon proved unreachable.
 */
import { messageOf } from '../errors.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';

export interface StopAllReport {
  stopped: string[];
  /** Set when part of the daemon side failed. */
  error?: string;
}

/** The transport queues at most 8 writes per endpoint (http-transport.ts); stay below it. */
const STOP_BATCH = 6;
const PASSES = 3;

export async function stopAllMoves(
  daemon: Pick<DaemonClient, 'runningMoves' | 'stopMove'>,
  alsoKnown: () => string[],
): Promise<StopAllReport> {
  const stopped = new Set<string>();
  let error: string | undefined;
  for (let pass = 0; pass < PASSES; pass += 1) {
    let listed: string[] = [];
    let listFailed = false;
    try {
      listed = await daemon.runningMoves();
    } catch (err) {
      listFailed = true;
      error = messageOf(err);
    }
    const targets = [...new Set([...listed, ...alsoKnown()])].filter((uuid) => !stopped.has(uuid));
    if (targets.length === 0 || (listFailed && pass > 0)) break;
    const failure = await stopBatches(daemon, targets, stopped);
    if (failure) error = failure;
    if (listFailed) break;
  }
  return error ? { stopped: [...stopped], error } : { stopped: [...stopped] };
}

async function stopBatches(
  daemon: Pick<DaemonClient, 'stopMove'>,
  uuids: string[],
  stopped: Set<string>,
): Promise<string | undefined> {
  let failure: string | undefined;
  for (let i = 0; i < uuids.length; i += STOP_BATCH) {
    const batch = uuids.slice(i, i + STOP_BATCH);
    const results = await Promise.allSettled(batch.map((uuid) => daemon.stopMove(uuid)));
    results.forEach((result, k) => {
      if (result.status === 'fulfilled') stopped.add(batch[k] as string);
      else failure = messageOf(result.reason);
    });
  }
  return failure;
}
