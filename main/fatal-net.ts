/**
 * The last-resort net of every cockpit process: an exception nothing caught, or a promise
 * rejection nothing handled, is written as one `fatal` JSON line (the shape of server/log.ts,
 * secrets redacted by the same redact()) and the process exits non-zero. Carrying on after an
 * unknown throw could leave the robot's state half-updated; a clean exit lets the supervisor
 * (main/supervisor.ts, or systemd's Restart=always) bring back a fresh process within seconds.
 */
import { redact } from '../server/index.ts';

/** EX_SOFTWARE (sysexits.h): an internal error, distinct from a start failure (2). */
export const FATAL_EXIT_CODE = 70;

export type FatalOrigin = 'uncaughtException' | 'unhandledRejection';

export interface FatalRecord {
  time: string;
  level: 'fatal';
  scope: string;
  msg: string;
  origin: FatalOrigin;
  error: string;
  stack?: string;
}

/** The line written for a fatal error; strings pass through redact() like every log field. */
export function fatalRecord(scope: string, origin: FatalOrigin, error: unknown, now = new Date()): FatalRecord {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  return {
    time: now.toISOString(),
    level: 'fatal',
    scope,
    msg: origin === 'uncaughtException' ? 'uncaught exception; exiting' : 'unhandled promise rejection; exiting',
    origin,
    error: redact(message) as string,
    ...(stack ? { stack: redact(stack) as string } : {}),
  };
}

/** The parts of `process` the net uses, so a test can hand it an EventEmitter. */
export interface FatalNetProcess {
  on(event: FatalOrigin, listener: (error: unknown) => void): unknown;
  exit(code: number): unknown;
}

export interface FatalNetOptions {
  /** The scope named in the line: which process died ('cockpit', 'cockpit.supervisor', ...). */
  scope: string;
  /** Where the line goes; stderr by default. */
  write?: (line: string) => void;
  proc?: FatalNetProcess;
}

/** Installs the net; call it first thing in an entry point. */
export function installFatalNet(options: FatalNetOptions): void {
  const proc = options.proc ?? process;
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  let dying = false;
  const die = (origin: FatalOrigin) => (error: unknown) => {
    // A second failure while writing the first must not hide the exit.
    if (!dying) {
      dying = true;
      try {
        write(`${JSON.stringify(fatalRecord(options.scope, origin, error))}\n`);
      } catch {
        // Nothing left to report to; exiting is what matters.
      }
    }
    proc.exit(FATAL_EXIT_CODE);
  };
  proc.on('uncaughtException', die('uncaughtException'));
  proc.on('unhandledRejection', die('unhandledRejection'));
}
