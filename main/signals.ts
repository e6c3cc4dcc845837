/** Graceful stop on SIGTERM/SIGINT: sockets closed with 1001, requests drained, then exit. */
import type { Cockpit } from '../server/index.ts';

export function stopOnSignals(cockpit: Pick<Cockpit, 'stop'>, write: (line: string) => void = (l) => process.stdout.write(l)): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    write(`cockpit: ${signal}, shutting down\n`);
    cockpit.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
