/**
 * Runs the desktop server process (main/desktop/server-entry.ts) in a plain Node fork, as
 * Electron runs it in a utility process: `process.parentPort` is a stand-in carried over the
 * fork's IPC channel, with Electron's shape (message events carry `{data}`), so the entry takes
 * the same path it takes under Electron. Fork it with `serialization: 'advanced'` (structured
 * clone, as Electron's port) and `--import tsx`.
 */
import type { ParentPort } from '../parent-link.ts';

if (!process.send)
  throw new Error('fake-parent-port.ts must be started with child_process.fork (it needs an IPC channel)');

const port: ParentPort = {
  on: (_event, listener) => void process.on('message', (data: unknown) => listener({ data })),
  postMessage: (message) => void (process.connected && process.send?.(message)),
};
Object.defineProperty(process, 'parentPort', { value: port });
// Electron ends a utility process when its app quits; a fork whose parent is gone stops itself.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

await import('../server-entry.ts');
