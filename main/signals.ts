/**
 * Graceful stop on SIGTERM/SIGINT: sockets closed with 1001, requests drained, then exit. A
 * server forked by the console's restart loop (main/cockpit-child.ts) also stops when its IPC
 * channel closes, so it never outlives the parent that would restart it.
 */
import type { Cockpit } from '../server/index.ts';

export function stopOnSignals(cockpit: Pick<Cockpit, 'stop'>, write: (line: string) => void = (l) => process.stdout.write(l)): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    write(`cockpit: ${reason}, shutting down\n`);
    cockpit.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (process.connected) process.on('disconnect', () => stop('parent process gone'));
}
