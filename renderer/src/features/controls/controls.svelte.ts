/**
 * The operator controls: the latched stop, the control calls with their pending and refused
 * states, the event receipt feed and the joystick. Provided by Dashboard.svelte (alive while
 * signed in), read with useControls(). Page-wide inputs (Escape, keys, gamepad) are wired here
 * too, so they work on every page of the dashboard; the pad lives in its card.
 */
import { getContext, setContext } from 'svelte';
import type { ErrorBody, EventFrame, ServerFrame } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import { createControlApi, type ControlApi } from '../../lib/api/control-api.ts';
import type { Session } from '../../lib/state/session.svelte.ts';
import type { Connection } from '../connection/connection.svelte.ts';
import { refusalText } from './control-messages.ts';
import { listenForGamepads, listenForKeys } from './controls-input.ts';
import { JoystickDriver } from './joystick-driver.ts';
import type { JoystickTarget } from './joystick-math.ts';
import { mergeReceipts } from './receipts-feed.ts';
import { demoOn, reelView, stopLatched } from './robot-services.ts';

/** The places a control lives on screen; each shows its own pending state and last refusal. */
export type ControlArea = 'stop' | 'drive' | 'robot' | 'moves' | 'say';

/** An error frame this soon after a joystick frame is the joystick's. */
const JOYSTICK_ERROR_WINDOW_MS = 1500;

export class Controls {
  readonly api: ControlApi;
  readonly joystick: JoystickDriver;
  readonly #connection: Connection;

  readonly latched = $derived.by(() => stopLatched(this.#connection.frame?.services));
  readonly demo = $derived.by(() => demoOn(this.#connection.frame?.services));
  readonly reel = $derived.by(() => reelView(this.#connection.frame?.services));
  /** Newest first. */
  receipts = $state.raw<EventFrame[]>([]);
  pending = $state<Partial<Record<ControlArea, string>>>({});
  problems = $state<Partial<Record<ControlArea, string>>>({});
  /** The keyboard drives the head (on by default; a person typing elsewhere can turn it off). */
  keyboard = $state(true);
  /** The drive card is on screen: keys drive only where the person can see what they drive. */
  driveShown = $state(false);
  driving = $state(false);
  /** The id of the gamepad in use, null without one. */
  gamepad = $state<string | null>(null);
  #lastJoystickAt = Number.NEGATIVE_INFINITY;

  constructor(api: ControlApi, connection: Connection) {
    this.api = api;
    this.#connection = connection;
    this.joystick = new JoystickDriver({
      send: (target) => this.#sendJoystick(target),
      pose: () => {
        const head = this.#connection.frame?.head;
        return head ? { yaw: head.yaw, pitch: head.pitch, roll: head.roll, z: head.z } : null;
      },
      onActive: (active) => {
        this.driving = active;
        if (active) this.problems.drive = undefined;
      },
    });
  }

  /**
   * Runs one control call for an area: marks it pending (with what is happening, for the
   * button), and keeps the refusal text when the cockpit says no. Receipts confirm successes.
   */
  async run<T>(area: ControlArea, doing: string, call: (api: ControlApi) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
    this.pending[area] = doing;
    this.problems[area] = undefined;
    const result = await call(this.api);
    if (this.pending[area] === doing) this.pending[area] = undefined;
    if (!result.ok) this.problems[area] = refusalText(result);
    return result;
  }

  /** Never waits on anything else and is never disabled: the one control that must always work. */
  async stop(): Promise<void> {
    this.joystick.releaseAll();
    const result = await this.run('stop', 'Stopping', (api) => api.stop());
    if (result.ok && result.data.daemon?.ok === false) {
      this.problems.stop = `The stop is latched, but the robot did not confirm it: ${result.data.daemon.error ?? 'no answer'}.`;
    }
  }

  async resume(): Promise<void> {
    await this.run('stop', 'Resuming', (api) => api.resume());
  }

  hear(frame: ServerFrame): void {
    if (frame.type === 'event') {
      this.receipts = mergeReceipts(this.receipts, [frame as EventFrame]);
    } else if (frame.type === 'error' && performance.now() - this.#lastJoystickAt < JOYSTICK_ERROR_WINDOW_MS) {
      const { code, error } = frame as { code?: unknown; error?: unknown };
      this.problems.drive = refusalText({ code: String(code) as ErrorBody['code'], message: String(error) });
    }
  }

  async loadReceipts(): Promise<void> {
    const recent = await this.api.recentEvents(50);
    if (recent.ok) this.receipts = mergeReceipts(this.receipts, recent.data);
  }

  #sendJoystick(target: JoystickTarget): boolean {
    const sent = this.#connection.send({ type: 'joystick', ...target });
    if (sent) this.#lastJoystickAt = performance.now();
    return sent;
  }
}

const CONTROLS = Symbol('controls');

export function provideControls(session: Session, connection: Connection): Controls {
  const controls = new Controls(createControlApi(session.http), connection);

  $effect(() => connection.listen((frame) => controls.hear(frame)));
  $effect(() => {
    controls.joystick.setEnabled(!controls.latched && connection.presence === 'connected');
  });
  $effect(() => listenForKeys(controls));
  $effect(() => listenForGamepads(controls));
  $effect(() => () => controls.joystick.dispose());
  // The first state frame proves the credential works; asking before it would turn a refused
  // token into 401s that the browser logs as errors, when the socket's 4401 already says it.
  let loaded = false;
  $effect(() => {
    if (loaded || connection.frame === null) return;
    loaded = true;
    void controls.loadReceipts();
  });

  setContext(CONTROLS, controls);
  return controls;
}

export function useControls(): Controls {
  const controls = getContext<Controls | undefined>(CONTROLS);
  if (!controls) throw new Error('useControls() needs provideControls() in an ancestor (Dashboard.svelte)');
  return controls;
}
