import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLog, silentLog, type Log, type LogRecord } from '../../log.ts';
import { createHttpRover } from './http-rover.ts';
import type { DriveCommand } from './types.ts';

type Answer = (command: DriveCommand) => Response | Promise<Response>;

/**
 * The HTTP rover's own frame watchdog on fake timers and a hand-set clock, so a held-up event
 * loop (every timer late at once) is made exactly, not hoped for. `heard` is every command the
 * rover received, in order.
 */
function roverOnFakeTime(answer: Answer = () => Response.json({ message: 'ok' }), log: Log = silentLog) {
  const heard: DriveCommand[] = [];
  const clock = { t: 0 };
  const fetchFake = async (_url: string | URL | Request, init?: RequestInit) => {
    const command = (JSON.parse(String(init?.body)) as { command: DriveCommand }).command;
    heard.push(command);
    return answer(command);
  };
  const rover = createHttpRover({
    url: 'http://rover.invalid',
    log,
    fetch: fetchFake as typeof fetch,
    cameraPath: null,
    resendMs: 200,
    now: () => clock.t,
  });
  return { rover, heard, clock };
}

const ZERO = { linear: 0, angular: 0 };

afterEach(() => {
  vi.useRealTimers();
});

describe('HTTP rover frame deadline', () => {
  it('sends no motion after the deadline when the event loop was held up past it', async () => {
    vi.useFakeTimers();
    const { rover, heard, clock } = roverOnFakeTime();
    rover.drive({ linear: 0.5, angular: 0 }, 500);
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }]);
    // Held up for 2 s: the repeat timer (due at 200 ms) and the deadline's (500 ms) run late, in that order.
    clock.t = 2000;
    await vi.advanceTimersByTimeAsync(500);
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }, ZERO]);
  });

  it('sends no motion that waited behind a slow answer until after the deadline', async () => {
    vi.useFakeTimers();
    let release: (() => void) | undefined;
    const { rover, heard, clock } = roverOnFakeTime(
      (command) =>
        new Promise<Response>((resolve) => {
          const ok = () => resolve(Response.json({ message: 'ok' }));
          // The first command's answer is held by the test; the rest answer at once.
          if (command.linear === 0.5 && !release) release = ok;
          else ok();
        }),
    );
    rover.drive({ linear: 0.5, angular: 0 }, 500);
    await vi.advanceTimersByTimeAsync(200);
    // The repeat came while the first command was unanswered: it waits, latest-only.
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }]);
    // The loop is held up past the deadline, and the slow answer is the first thing it sees.
    clock.t = 2000;
    release?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }, ZERO]);
  });

  it('sends a stop the rover refused again until the rover takes it', async () => {
    vi.useFakeTimers();
    let refuse = 2;
    const { rover, heard, clock } = roverOnFakeTime((command) =>
      command.linear === 0 && refuse-- > 0 ? Response.json({ detail: 'busy' }, { status: 503 }) : Response.json({}),
    );
    rover.drive({ linear: 0.5, angular: 0 }, 1000);
    await vi.advanceTimersByTimeAsync(0);
    clock.t = 100;
    rover.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }, ZERO]);
    // Refused twice, then taken; after that the rover hears nothing more, however long.
    clock.t = 2000;
    await vi.advanceTimersByTimeAsync(2000);
    expect(heard).toEqual([{ linear: 0.5, angular: 0 }, ZERO, ZERO, ZERO]);
  });

  it('gives up a refused stop once a new frame drives', async () => {
    vi.useFakeTimers();
    const { rover, heard } = roverOnFakeTime((command) =>
      command.linear === 0 ? Response.json({ detail: 'busy' }, { status: 503 }) : Response.json({}),
    );
    rover.stop();
    await vi.advanceTimersByTimeAsync(0);
    rover.drive({ linear: 0.3, angular: 0 }, 1000);
    // The stop's retry falls due while the frame runs: the frame's repeats go out, no zero.
    await vi.advanceTimersByTimeAsync(500);
    const drive = { linear: 0.3, angular: 0 };
    expect(heard).toEqual([ZERO, drive, drive, drive]);
  });

  it('logs a stop the rover keeps refusing once, not at every resend', async () => {
    vi.useFakeTimers();
    const warnings: LogRecord[] = [];
    const log = createLog({ sink: (r) => r.level === 'warn' && warnings.push(r) });
    let refuse = 20;
    const { rover, heard, clock } = roverOnFakeTime(
      (command) =>
        command.linear === 0 && refuse-- > 0 ? Response.json({ detail: 'busy' }, { status: 503 }) : Response.json({}),
      log,
    );
    rover.stop();
    clock.t = 5000;
    await vi.advanceTimersByTimeAsync(5000);
    expect(heard).toHaveLength(21);
    expect(warnings.map((w) => w.error)).toEqual(['the rover refused a command (503)']);
    // Once a command got through, the next failure is news again.
    refuse = 1;
    rover.stop();
    await vi.advanceTimersByTimeAsync(200);
    expect(warnings).toHaveLength(2);
  });
});
