/**
 * The server process's end of the desktop link over Electron's utility-process port
 * (`process.parentPort`), adapted to the small LinkPort that cockpit-host.ts and server-entry.ts
 * talk through. This is the whole of the Electron-specific code in that process; the shape is
 * typed here so the server needs no Electron typings, and a test supplies a stand-in over Node's
 * IPC (main/desktop/testing/fake-parent-port.ts) to run the same entry in a plain fork.
 */
import { isToServer, type FromServer } from './cockpit-link.ts';
import type { LinkPort } from './cockpit-host.ts';

/** Electron's `process.parentPort` in a utility process, as much of it as the link uses. */
export interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** The process's parent port, when it runs as a utility process (or under the test stand-in). */
export function parentPortOf(proc: NodeJS.Process = process): ParentPort | undefined {
  return (proc as { parentPort?: ParentPort }).parentPort;
}

/** The link over the port: messages in are shape-checked (the other side is another program). */
export function parentPortLink(port: ParentPort): LinkPort {
  return {
    post: (message: FromServer) => port.postMessage(message),
    onMessage: (listener) =>
      port.on('message', (event) => {
        if (isToServer(event.data)) listener(event.data);
      }),
  };
}
