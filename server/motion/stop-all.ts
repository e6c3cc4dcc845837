/**
 * The daemon part of the latched stop. There is no "stop all" route (docs/daemon.md, "Moves"), so:
 * list /running and stop each move, in batches, then list again; a move started during the
 * first pass (or refused by a full write queue) is caught by the next. Three passes at most,
 * and no second pass once the daemon proved unreachable. The moves already known (from the move
 * events, or started here) are stopped while the first list is read.
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
    // The moves known already are stopped while the first list is read: a daemon that does not
    // answer then holds the stop for one timeout, not for the list's and then the stops' in a row.
    const early = pass === 0 ? [...new Set(alsoKnown())] : [];
    const [listing, earlyFailure] = await Promise.all([
      daemon.runningMoves().then(
        (uuids) => ({ uuids, error: undefined }),
        (err: unknown) => ({ uuids: [] as string[], error: messageOf(err) }),
      ),
      stopBatches(daemon, early, stopped),
    ]);
    const listFailed = listing.error !== undefined;
    if (listFailed) error = listing.error;
    if (earlyFailure) error = earlyFailure;
    // A known move whose stop failed just now is not asked again in this pass.
    const targets = [...new Set([...listing.uuids, ...alsoKnown()])].filter(
      (uuid) => !stopped.has(uuid) && !early.includes(uuid),
    );
    // Moves were stopped early: the next pass lists again, as after any stop.
    if (targets.length === 0 && early.length > 0 && !listFailed) continue;
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
