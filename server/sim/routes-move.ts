/** /api/move routes (docs/daemon.md, "Moves"): gotos, wake/sleep, recorded moves, stop, set_target. */
import type { SimContext } from './context.ts';
import { uuid } from './fields.ts';
import { DetailError, jsonBody, route, UncaughtError, type Route } from './http-kit.ts';
import { listMoves, recordedMove } from './library.ts';
import { parseFullBodyTarget, parseGoto, parseRequired, type BodyTargetInput } from './models.ts';
import type { Step } from './moves.ts';
import { gotoSleepSteps, wakeUpSteps } from './sequences.ts';

/** set_target semantics shared with the WebSocket: ignored while any move runs, unreachable poses skipped silently. */
export function applyTarget(ctx: SimContext, target: BodyTargetInput): 'ok' | 'ignored' {
  if (ctx.moves.anyRunning()) return 'ignored';
  if (ctx.world.setTarget(target)) ctx.counters.targetsApplied += 1;
  else ctx.log.debug('set_target skipped: pose not reachable');
  return 'ok';
}

/** The message huggingface_hub raises for an unknown dataset repo, which the route passes through. */
function repoNotFound(dataset: string): DetailError {
  return new DetailError(
    404,
    `Repository Not Found for url: https://huggingface.co/api/datasets/${dataset}/revision/main.`,
  );
}

function recordedSteps(ctx: SimContext, dataset: string, name: string): Step[] {
  if (!listMoves(dataset)) throw repoNotFound(dataset);
  const move = recordedMove(dataset, name);
  if (!move) throw new DetailError(404, `Move ${name} not found in recorded moves library ${dataset}`);
  const sound = move.sound;
  const steps: Step[] = [{ kind: 'trajectory', duration: move.duration, sample: move.sample }];
  // The sidecar sound starts with the move; stopping the move does not stop it (docs/daemon.md, "Moves").
  return sound ? [{ kind: 'do', run: () => ctx.playSound(sound, move.duration) }, ...steps] : steps;
}

export function moveRoutes(ctx: SimContext): Route[] {
  const start = (steps: Step[]): { json: { uuid: string } } => ({
    json: { uuid: ctx.moves.start(steps, ctx.monoS()) },
  });
  const backend = { backend: true };
  return [
    route(
      'POST',
      '/api/move/goto',
      (req) => {
        const goto = parseGoto(jsonBody(req));
        // `interpolation` is validated but never reaches the backend: REST gotos are min-jerk (docs/daemon.md, "Moves").
        // A duration ≤ 0 returns a uuid and moves nothing.
        const target = { head: goto.head, antennas: goto.antennas, bodyYaw: goto.bodyYaw };
        return start(goto.duration > 0 ? [{ kind: 'goto', target, duration: goto.duration }] : []);
      },
      backend,
    ),
    route('POST', '/api/move/play/wake_up', () => start(wakeUpSteps(ctx.sequences)), backend),
    route('POST', '/api/move/play/goto_sleep', () => start(gotoSleepSteps(ctx.sequences)), backend),
    route('GET', '/api/move/running', () => ({ json: ctx.moves.listed().map((id) => ({ uuid: id })) })),
    route('POST', '/api/move/stop', (req) => {
      const id = parseRequired(jsonBody(req), 'uuid', uuid);
      // The real handler lets a KeyError escape: an unknown or finished move is a bare 500.
      if (!ctx.moves.stop(id)) throw new UncaughtError(`Running move with UUID ${id} not found`);
      return { json: { message: `Stopped move with UUID: ${id}` } };
    }),
    route('GET', '/api/move/recorded-move-datasets/list/{dataset_name:path}', (req) => {
      const dataset = req.params.dataset_name ?? '';
      const names = listMoves(dataset);
      if (!names) throw repoNotFound(dataset);
      return { json: [...names] };
    }),
    route(
      'POST',
      '/api/move/play/recorded-move-dataset/{dataset_name:path}/{move_name}',
      (req) => start(recordedSteps(ctx, req.params.dataset_name ?? '', req.params.move_name ?? '')),
      backend,
    ),
    route(
      'POST',
      '/api/move/set_target',
      (req) => {
        const result = applyTarget(ctx, parseFullBodyTarget(jsonBody(req)));
        return { json: result === 'ok' ? { status: 'ok' } : { status: 'ignored', reason: 'move_running' } };
      },
      backend,
    ),
  ];
}
