/**
 * Hold-to-move: while any input holds a rate, the driver moves the head target and sends it
 * about 30 times a second; when every input lets go it sends nothing more, and the cockpit
 * stops its stream 300 ms later with the head holding still (README-control.md, "Joystick").
 */
import { combineRates, isIdle, stepTarget, ZERO_RATES, type JoystickTarget, type Rates } from './joystick-math.ts';

export type InputName = 'keys' | 'pad' | 'gamepad';

export interface JoystickDriverOptions {
  /** Sends one absolute target; false when it could not go out (socket closed). */
  send(target: JoystickTarget): boolean;
  /** The head pose now, where a hold starts from after a pause. */
  pose(): JoystickTarget | null;
  /** Called when driving starts or stops, for the screen. */
  onActive?(active: boolean): void;
  hz?: number;
  now?: () => number;
  setInterval?: (run: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

/** After this long without a frame the cockpit has let go, so the next hold starts from the real pose. */
const STREAM_HOLD_MS = 300;
/** A stalled tab must not turn one late tick into a leap. */
const MAX_STEP_MS = 100;

export class JoystickDriver {
  readonly #options: JoystickDriverOptions;
  readonly #inputs = new Map<InputName, Rates>();
  readonly #now: () => number;
  #enabled = true;
  #timer: unknown = null;
  #target: JoystickTarget = { ...ZERO_RATES };
  #lastTick = 0;
  #lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(options: JoystickDriverOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  get active(): boolean {
    return this.#timer !== null;
  }

  /** The last target sent (or about to be), for a readout. */
  get target(): JoystickTarget {
    return { ...this.#target };
  }

  /** Sets what one input holds now; all-zero rates let go of it. */
  set(input: InputName, rates: Rates): void {
    if (isIdle(rates)) this.#inputs.delete(input);
    else this.#inputs.set(input, rates);
    this.#update();
  }

  /** Lets go of everything (window lost focus, the stop was pressed). */
  releaseAll(): void {
    this.#inputs.clear();
    this.#update();
  }

  /** While disabled (stop latched, socket down) inputs are remembered but nothing is sent. */
  setEnabled(enabled: boolean): void {
    this.#enabled = enabled;
    this.#update();
  }

  dispose(): void {
    this.#inputs.clear();
    this.#halt();
  }

  #rates(): Rates {
    return combineRates(this.#inputs.values());
  }

  #update(): void {
    const wanted = this.#enabled && !isIdle(this.#rates());
    if (!wanted) return this.#halt();
    if (this.#timer !== null) return;
    const now = this.#now();
    if (now - this.#lastSentAt > STREAM_HOLD_MS) this.#target = this.#options.pose() ?? { ...ZERO_RATES };
    const period = 1000 / (this.#options.hz ?? 30);
    this.#lastTick = now - period;
    const every = this.#options.setInterval ?? ((run: () => void, ms: number) => setInterval(run, ms));
    this.#timer = every(() => this.#tick(), period);
    this.#options.onActive?.(true);
    this.#tick();
  }

  #tick(): void {
    const now = this.#now();
    const dt = Math.min(MAX_STEP_MS, Math.max(0, now - this.#lastTick));
    this.#lastTick = now;
    this.#target = stepTarget(this.#target, this.#rates(), dt);
    if (this.#options.send({ ...this.#target })) this.#lastSentAt = now;
  }

  #halt(): void {
    if (this.#timer === null) return;
    const clear = this.#options.clearInterval ?? ((handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>));
    clear(this.#timer);
    this.#timer = null;
    this.#options.onActive?.(false);
  }
}
