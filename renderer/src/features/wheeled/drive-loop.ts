/**
 * Hold-to-drive: while any input drives, a frame goes out every FRAME_EVERY_MS with a duration a
 * little longer than that, so the base moves smoothly while the frames keep coming and stops by
 * itself within FRAME_SECONDS if they stop (a lost socket, a frozen tab). Letting go sends one
 * {stop: true} at once rather than waiting for the last frame to run out.
 */
import { combineDrives, isStill, STILL, type Drive } from './drive-input.ts';

export const FRAME_EVERY_MS = 100;
/** Three frame periods: one late frame does not make the base stutter. */
export const FRAME_SECONDS = 0.3;

export type DriveMessage = { type: 'control'; linear: number; angular: number; duration: number } | { stop: true };

export interface DriveLoopDeps {
  /** Sends over /ws/chat; false when the socket is not open. */
  send: (message: DriveMessage) => boolean;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface DriveLoop {
  /** Sets what one input (keys, pad, gamepad) asks for. */
  set(source: string, drive: Drive): void;
  /** The combined drive being sent now. */
  current(): Drive;
  /** Releases every input and stops the base (Space, the STOP button, the page hidden). */
  stop(): void;
  close(): void;
}

export function createDriveLoop(deps: DriveLoopDeps): DriveLoop {
  const setTimer = deps.setTimer ?? ((run: () => void, ms: number) => setInterval(run, ms));
  const clearTimer = deps.clearTimer ?? ((h: unknown) => clearInterval(h as ReturnType<typeof setInterval>));
  const inputs = new Map<string, Drive>();
  let timer: unknown = null;
  let drive: Drive = { ...STILL };

  const frame = () => {
    deps.send({ type: 'control', linear: drive.linear, angular: drive.angular, duration: FRAME_SECONDS });
  };
  const halt = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
  };
  const update = () => {
    const next = combineDrives(inputs.values());
    const wasDriving = !isStill(drive);
    drive = next;
    if (isStill(next)) {
      halt();
      if (wasDriving) deps.send({ stop: true });
      return;
    }
    frame();
    if (timer === null) timer = setTimer(frame, FRAME_EVERY_MS);
  };

  return {
    set(source, value) {
      if (isStill(value)) inputs.delete(source);
      else inputs.set(source, value);
      update();
    },
    current: () => drive,
    stop() {
      inputs.clear();
      halt();
      drive = { ...STILL };
      deps.send({ stop: true });
    },
    close() {
      inputs.clear();
      halt();
    },
  };
}
