/**
 * A supervised headless cockpit: the restart loop of main/supervisor.ts around `main/serve.ts`
 * forked as a child (main/cockpit-child.ts). `npm start` without Electron and
 * `npm run serve -- supervise` run this; SIGINT/SIGTERM stop the loop and then the server.
 */
import type { Log } from '../server/index.ts';
import { forkServe, type CockpitReady, type ForkOptions } from './cockpit-child.ts';
import { createSupervisor, type Supervisor } from './supervisor.ts';

export interface SupervisedRunOptions extends ForkOptions {
  log: Log;
  /** Keep a loaded spare beside the server (config.spare, ROBOT_SPARE). */
  spare: boolean;
  /** Each time a server process listens: the first start (restarts 0) and every restart. */
  onReady?(ready: CockpitReady, restarts: number): void;
}

/** Starts the loop; resolves once the first server listens, rejects when that start fails. */
export async function runSupervised(options: SupervisedRunOptions): Promise<Supervisor<CockpitReady>> {
  const { log, onReady, spare, ...fork } = options;
  const supervisor = createSupervisor({ start: forkServe(fork), log, spare });
  supervisor.onState((state) => {
    if (state.kind === 'running') onReady?.(state.info, state.restarts);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping the cockpit server', { signal });
    supervisor.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await supervisor.start();
  return supervisor;
}
