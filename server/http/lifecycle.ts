/**
 * Start-up and shutdown shared by both servers (docs/architecture.md, "Build order"). Each step of
 * a start that acquires something (a port, a child process, a timer, a file watcher) pushes its
 * undo; a failure half-way or `stop()` undoes exactly what was built, in reverse. The listening
 * end is the same on both: a Node server per address, the JSON answer to bytes Node's parser
 * refuses, the hub's upgrades, and a shutdown where sockets get their 1001 before the listeners
 * drain.
 */
import { createServer, type Server } from 'node:http';
import { WS_CLOSE } from '../errors.ts';
import type { Log } from '../log.ts';
import type { CockpitApp } from './cockpit-app.ts';
import { answerClientErrors, closeServer, SERVER_OPTIONS } from './listeners.ts';

export type Undo = () => Promise<void> | void;

export interface Teardown {
  /** Remembers how to release what the step before it acquired. */
  push(undo: Undo): void;
  /** Runs every undo once, newest first; a second call gets the first call's promise. */
  run(): Promise<void>;
}

export function createTeardown(): Teardown {
  const undos: Undo[] = [];
  let running: Promise<void> | undefined;
  return {
    push: (undo) => void undos.push(undo),
    run: () => (running ??= undoAll(undos)),
  };
}

/** Newest first; one failing undo does not keep the others from releasing theirs. */
async function undoAll(undos: readonly Undo[]): Promise<void> {
  for (const undo of [...undos].reverse()) {
    try {
      await undo();
    } catch {
      // Shutting down: keep going so every resource is released.
    }
  }
}

/**
 * Runs a server's start with a fresh teardown. When the start throws, what it had built is undone
 * before the error goes on, so a failed start leaves no port, process or timer behind.
 */
export async function startWithTeardown<T>(start: (teardown: Teardown) => Promise<T>): Promise<T> {
  const teardown = createTeardown();
  try {
    return await start(teardown);
  } catch (error) {
    await teardown.run();
    throw error;
  }
}

type Served = Pick<CockpitApp, 'koa' | 'hub'>;

/** A plain HTTP listener for the app (not yet listening); TLS listeners come from the HTTPS service. */
export function httpListener(app: Served, log: Log): Server {
  return serveOn(createServer(SERVER_OPTIONS, app.koa.callback()), app, log);
}

/** Gives a created server the app's answers for refused bytes and its socket upgrades. */
export function serveOn(server: Server, app: Served, log: Log): Server {
  answerClientErrors(server, log);
  app.hub.attach(server);
  return server;
}

/**
 * The shutdown of the listening end, pushed once the listeners listen. Undone newest first, so the
 * sockets get going-away (1001) first, then each listener stops accepting and drains its requests.
 */
export function pushListenerShutdown(teardown: Teardown, app: Served, servers: readonly Server[]): void {
  teardown.push(() => Promise.all(servers.map((s) => closeServer(s))).then(() => undefined));
  teardown.push(() => app.hub.closeAll(WS_CLOSE.GOING_AWAY, 'cockpit shutting down'));
}
