/**
 * A real rover behind HTTP, in the shape of the FrodoBots Earth Rover SDK (README-wheeled.md,
 * "Real rover"): POST /control {command: {linear, angular}} with values in [-1, 1], GET /data
 * for telemetry, GET /v2/front for the front camera as base64 JPEG. The SDK has no notion of a
 * frame's duration, so this backend keeps the frame watchdog itself: it repeats the command
 * while the frame runs (the SDK drops a bot that hears nothing) and sends a zero command at its
 * deadline. Commands are sent latest-only: a slow SDK never queues stale motion.
 */
import type { CameraFrame, CameraSource } from '../../camera/frame.ts';
import { withDeadline } from '../../deadline.ts';
import { BodyTooLong, readJsonUpTo } from '../../http-body.ts';
import type { Log } from '../../log.ts';
import { telemetryFromData, type OdometryOrigin } from './rover-telemetry.ts';
import type { BackendPresence, BaseTelemetry, DriveBackend, DriveCommand } from './types.ts';

export interface HttpRoverOptions {
  /** The SDK's base URL, e.g. http://127.0.0.1:8000. */
  url: string;
  log: Log;
  fetch?: typeof fetch;
  /** Telemetry poll period (default 250 ms). */
  pollMs?: number;
  /** Command repeat period while a frame runs (default 200 ms). */
  resendMs?: number;
  timeoutMs?: number;
  /** Some rovers turn right for a positive angular; the cockpit's positive is left. */
  invertAngular?: boolean;
  /** Front camera path; null when the rover has no camera. */
  cameraPath?: string | null;
  cameraFps?: number;
  /** Top speeds at full command, for readouts (an Earth Rover: about 1 m/s). */
  limits?: { maxLinear: number; maxAngular: number };
  now?: () => number;
}

const ZERO: DriveCommand = Object.freeze({ linear: 0, angular: 0 });

/** The longest answer read from the rover: its largest is a camera frame, a base64 JPEG. */
const ANSWER_LIMIT = 8 * 1024 * 1024;

export function createHttpRover(options: HttpRoverOptions): DriveBackend {
  const doFetch = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const now = options.now ?? Date.now;
  const base = options.url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 1500;
  const limits = options.limits ?? { maxLinear: 1, maxAngular: 2 };
  const log = options.log;
  let presence: BackendPresence = 'connecting';
  let problem: string | null = null;
  let failures = 0;
  let telemetry: BaseTelemetry | undefined;
  const origin: OdometryOrigin = {};
  let commanded: DriveCommand = ZERO;
  let deadline = 0;
  let repeat: NodeJS.Timeout | undefined;
  let expiry: NodeJS.Timeout | undefined;
  let poller: NodeJS.Timeout | undefined;
  let inFlight = false;
  let pending: DriveCommand | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** The last command failure logged; the same again is not logged until a command gets through. */
  let lastCommandError: string | undefined;
  let closed = false;
  const resendMs = options.resendMs ?? 200;

  // One deadline per call, the body read included, whatever the collector does (server/deadline.ts).
  const call = <T>(path: string, init: RequestInit, read: (res: Response) => Promise<T>) =>
    withDeadline(timeoutMs, async (signal) => read(await doFetch(`${base}${path}`, { ...init, signal })));
  const getJson = (path: string) =>
    call(path, {}, async (res) => {
      if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
      const body = await readJsonUpTo(res, ANSWER_LIMIT).catch((error: unknown) => {
        throw error instanceof BodyTooLong ? new Error(`GET ${path} answered more than ${error.limit}`) : error;
      });
      if (body === undefined) throw new Error(`GET ${path} answered with a body that is not JSON`);
      return body;
    });
  const camera =
    options.cameraPath === null
      ? null
      : roverCamera(getJson, options.cameraPath ?? '/v2/front', options.cameraFps ?? 5, now);

  const post = async (command: DriveCommand) => {
    const angular = options.invertAngular ? -command.angular : command.angular;
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: { linear: command.linear, angular } }),
    };
    await call('/control', init, async (res) => {
      if (!res.ok) throw new Error(`the rover refused a command (${res.status})`);
      await res.body?.cancel();
    });
  };
  const pump = async () => {
    inFlight = true;
    while (pending) {
      // Motion never leaves after its frame's deadline, here as in the repeat timer: a command
      // that waited behind a slow answer while the event loop was held up is stale by now.
      const command = pending === ZERO || now() < deadline ? pending : ZERO;
      pending = undefined;
      try {
        await post(command);
        lastCommandError = undefined;
      } catch (error) {
        const message = (error as Error).message;
        problem = `drive command failed: ${message}`;
        // A stop resent every 200 ms to a rover that stays down would log five lines a second.
        if (message !== lastCommandError) log.warn('rover command failed', { error: message });
        lastCommandError = message;
        if (command === ZERO) retryStop();
      }
    }
    inFlight = false;
  };
  // A stop the rover refused or never answered (busy, timed out) used to be the last word: a
  // rover that holds the last command it took drove on, and nothing told it otherwise. The zero
  // goes again until the rover takes it, a new frame drives, or the backend closes.
  const retryStop = () => {
    clearTimeout(retry);
    retry = setTimeout(() => {
      if (!closed && (commanded === ZERO || now() >= deadline)) send(ZERO);
    }, resendMs);
    retry.unref();
  };
  const send = (command: DriveCommand) => {
    pending = command;
    if (!inFlight) void pump();
  };
  const halt = () => {
    clearInterval(repeat);
    clearTimeout(expiry);
    repeat = expiry = undefined;
    commanded = ZERO;
    send(ZERO);
  };

  const poll = oneAtATime(async () => {
    try {
      const data = await getJson('/data');
      telemetry = telemetryFromData(data, {
        origin,
        commanded: now() < deadline ? commanded : ZERO,
        limits,
        at: now(),
        previous: telemetry?.pose,
      });
      failures = 0;
      presence = 'connected';
      problem = null;
    } catch (error) {
      failures += 1;
      if (failures >= 3) {
        presence = 'down';
        problem = `the rover at ${base} does not answer: ${(error as Error).message}`;
      }
    }
  });

  return {
    kind: 'http',
    simulated: false,
    limits,
    async start() {
      await poll();
      poller = setInterval(() => void poll(), options.pollMs ?? 250);
      poller.unref();
    },
    async close() {
      clearInterval(poller);
      halt();
      closed = true;
      while (inFlight) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    drive(command, untilMs) {
      const t = now();
      clearInterval(repeat);
      clearTimeout(expiry);
      if (untilMs <= t) return halt();
      commanded = command;
      deadline = untilMs;
      send(command);
      // When the event loop was held up, the repeat timer (due before the deadline) runs before
      // the deadline's own timer; it used to send the stale command after the frame was over.
      repeat = setInterval(() => (now() < deadline ? send(commanded) : halt()), resendMs);
      expiry = setTimeout(halt, untilMs - t);
      repeat.unref();
      expiry.unref();
    },
    stop: halt,
    resetOdometry() {
      origin.pending = true;
    },
    telemetry: () => telemetry,
    presence: () => ({ state: presence, problem }),
    camera: () => camera,
  };
}

/** Polls the SDK's front frame ({front_frame: base64, timestamp}) into camera frames. */
function roverCamera(
  getJson: (path: string) => Promise<unknown>,
  path: string,
  fps: number,
  now: () => number,
): CameraSource {
  let timer: NodeJS.Timeout | undefined;
  let seq = 0;
  return {
    name: `rover camera ${path}`,
    async start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void) {
      const grab = oneAtATime(async () => {
        try {
          const answer = await getJson(path);
          const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
          if (typeof body.front_frame !== 'string' || body.front_frame === '')
            throw new Error(`GET ${path} had no front_frame`);
          const jpeg = Buffer.from(body.front_frame, 'base64');
          // Seconds since the epoch; anything that is not a plausible time is the rover's, not the frame's.
          const stamp = typeof body.timestamp === 'number' ? Math.round(body.timestamp * 1000) : NaN;
          const capturedAt = Number.isSafeInteger(stamp) && stamp > 0 ? stamp : now();
          if (timer) onFrame({ jpeg, width: 0, height: 0, capturedAt, seq: (seq += 1) });
        } catch (error) {
          onError(error instanceof Error ? error : new Error(String(error)));
        }
      });
      timer = setInterval(() => void grab(), Math.round(1000 / Math.max(1, fps)));
      timer.unref();
      await grab();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/**
 * Runs `work` unless its last run is still going. The polls ask again only once the rover has
 * answered: a slow rover used to get a new request every period on top of those it had not
 * answered (six telemetry and eight camera reads at a time within the timeout), and a late
 * answer then overwrote the pose of a newer one.
 */
function oneAtATime(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= work().finally(() => (running = undefined)));
}
