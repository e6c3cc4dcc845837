/**
 * The perception card's state: the face tracker's and the speaker turner's status, from the
 * state frame (tracking, 15 times a second), the `tracking` and `doa` change frames, and the
 * first GETs; the two switches with their pending and refused states; looking toward a bearing.
 */
import type { ServerFrame } from '../../../../server/contract/index.ts';
import type { ControlApi } from '../../lib/api/control-api.ts';
import {
  readDoa,
  readTracking,
  type DoaStatus,
  type PerceptionApi,
  type TrackingStatus,
} from '../../lib/api/perception-api.ts';

export type PerceptionSwitch = 'tracking' | 'doa';

export class Perception {
  tracking = $state.raw<TrackingStatus | null>(null);
  /** Date.now() when `tracking` arrived, so hold countdowns move between updates. */
  trackingAt = $state(0);
  doa = $state.raw<DoaStatus | null>(null);
  pending = $state<Partial<Record<PerceptionSwitch, boolean>>>({});
  problem = $state('');
  readonly #api: PerceptionApi;
  readonly #control: ControlApi;

  constructor(api: PerceptionApi, control: ControlApi) {
    this.#api = api;
    this.#control = control;
  }

  setTracking(status: TrackingStatus | null, at = Date.now()): void {
    if (!status) return;
    this.tracking = status;
    this.trackingAt = at;
  }

  hear(frame: ServerFrame): void {
    if (frame.type === 'tracking') this.setTracking(readTracking(frame));
    else if (frame.type === 'doa') this.doa = readDoa(frame) ?? this.doa;
  }

  async load(): Promise<void> {
    const [tracking, doa] = await Promise.all([this.#api.tracking(), this.#api.doa()]);
    if (tracking.ok) this.setTracking(tracking.data);
    if (doa.ok && doa.data) this.doa = doa.data;
  }

  async toggle(which: PerceptionSwitch): Promise<void> {
    this.pending[which] = true;
    this.problem = '';
    if (which === 'tracking') {
      const result = await this.#api.setTracking(!(this.tracking?.enabled ?? false));
      if (result.ok) this.setTracking(result.data);
      else this.problem = `Face tracking: ${result.message}`;
    } else {
      const result = await this.#api.setDoa(!(this.doa?.enabled ?? false));
      if (result.ok && result.data) this.doa = result.data;
      else if (!result.ok) this.problem = `Turn toward speaker: ${result.message}`;
    }
    this.pending[which] = false;
  }

  /** Turns the head to `bearing` (same convention as head yaw), keeping the pitch. */
  async lookToward(bearing: number, pitch: number): Promise<string> {
    this.problem = '';
    const result = await this.#control.look({ yaw: bearing, pitch });
    if (!result.ok) {
      this.problem = result.message;
      return '';
    }
    const yaw = result.data.clamped?.yaw;
    return yaw ? `The head turns as far as it can: ${Math.round(yaw.applied)}°.` : '';
  }
}
