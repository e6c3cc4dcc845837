/**
 * Page-wide inputs of the controls: Escape is the stop key everywhere, the keyboard joystick
 * (on by default, quiet while typing), and a gamepad polled once per animation frame while one
 * is connected. Each returns its cleanup, for an $effect.
 */
import { isTypingTarget, keyDrive, keyRates, type KeyDrive } from './key-bindings.ts';
import { ZERO_RATES, stickRates } from './joystick-math.ts';
import type { JoystickDriver } from './joystick-driver.ts';

/**
 * What the page-wide inputs drive: the slice of the operator controls (controls.svelte.ts) they
 * use, declared here so that module can wire these listeners without the two importing each other.
 */
export interface InputTarget {
  readonly joystick: Pick<JoystickDriver, 'set'>;
  readonly latched: boolean;
  readonly keyboard: boolean;
  readonly driveShown: boolean;
  gamepad: string | null;
  stop(): Promise<void>;
}

export function listenForKeys(controls: InputTarget, target: Window = window): () => void {
  const held = new Map<string, KeyDrive>();
  const update = () => controls.joystick.set('keys', keyRates(held.values()));

  function onKeyDown(event: KeyboardEvent): void {
    // A component that uses Escape itself (cancel a rename) marks it handled first.
    if (event.key === 'Escape' && !event.defaultPrevented) {
      if (!controls.latched) void controls.stop();
      return;
    }
    if (
      !controls.keyboard ||
      !controls.driveShown ||
      isTypingTarget(event.target instanceof Element ? event.target : null)
    )
      return;
    const drive = keyDrive(event);
    if (!drive) return;
    event.preventDefault();
    if (held.has(event.code)) return;
    held.set(event.code, drive);
    update();
  }
  function onKeyUp(event: KeyboardEvent): void {
    if (held.delete(event.code)) update();
  }
  // A key released while the window is in the background never sends keyup: let go of all.
  function releaseAll(): void {
    held.clear();
    update();
  }

  target.addEventListener('keydown', onKeyDown);
  target.addEventListener('keyup', onKeyUp);
  target.addEventListener('blur', releaseAll);
  return () => {
    target.removeEventListener('keydown', onKeyDown);
    target.removeEventListener('keyup', onKeyUp);
    target.removeEventListener('blur', releaseAll);
    releaseAll();
  };
}

/** Polls the first connected gamepad (the Gamepad API has no events for stick movement). */
export function listenForGamepads(controls: InputTarget, target: Window = window): () => void {
  let frame: number | null = null;

  function poll(): void {
    const pad = (target.navigator.getGamepads?.() ?? []).find((p) => p !== null && p.connected) ?? null;
    controls.gamepad = pad ? pad.id : null;
    controls.joystick.set('gamepad', pad ? stickRates(pad.axes) : ZERO_RATES);
    frame = pad ? target.requestAnimationFrame(poll) : null;
  }
  function onConnected(): void {
    if (frame === null) poll();
  }

  target.addEventListener('gamepadconnected', onConnected);
  return () => {
    target.removeEventListener('gamepadconnected', onConnected);
    if (frame !== null) target.cancelAnimationFrame(frame);
    controls.joystick.set('gamepad', ZERO_RATES);
  };
}
