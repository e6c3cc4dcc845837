/**
 * What the camera card's presses do and the one line of text under the card that says how they
 * went: turning the head toward a point of the picture, and saving the newest picture as a file.
 */
import type { ControlApi } from '../../lib/api/control-api.ts';
import type { Connection } from '../connection/connection.svelte.ts';
import { formatDegrees } from './camera-format.ts';
import { lookTarget, snapshotName, type Point } from './camera-geometry.ts';
import type { CameraFeed } from './camera.svelte.ts';

export class CameraActions {
  note = $state('');
  noteIsProblem = $state(false);
  downloading = $state(false);
  readonly #feed: CameraFeed;
  readonly #connection: Connection;
  readonly #control: ControlApi;

  constructor(feed: CameraFeed, connection: Connection, control: ControlApi) {
    this.#feed = feed;
    this.#connection = connection;
    this.#control = control;
  }

  say(text: string, problem = false): void {
    this.note = text;
    this.noteIsProblem = problem;
  }

  /** Turns the head toward a point of the picture (fractions across and down); says what the robot limited. */
  async look(point: Point | null): Promise<void> {
    const head = this.#connection.frame?.head;
    if (!head || !point) return;
    const target = lookTarget(point, head);
    this.say(`Looking at yaw ${formatDegrees(target.yaw)}, pitch ${formatDegrees(target.pitch)}…`);
    const result = await this.#control.look(target);
    if (!result.ok) return this.say(result.message, true);
    const limited = Object.entries(result.data.clamped ?? {}).map(([axis, c]) => `${axis} ${formatDegrees(c.applied)}`);
    this.say(limited.length > 0 ? `The robot limited ${limited.join(', ')}.` : '');
  }

  async download(): Promise<void> {
    this.downloading = true;
    const result = await this.#feed.snapshot();
    this.downloading = false;
    if (!result.ok) return this.say(result.message, true);
    saveSnapshot(result.data);
  }
}

/** Hands the picture to the browser as a download named for this moment. */
function saveSnapshot(picture: Blob): void {
  const url = URL.createObjectURL(picture);
  const link = document.createElement('a');
  link.href = url;
  link.download = snapshotName(new Date());
  link.click();
  // The download has taken its copy by then; the address is not kept longer than that.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
