/** Words and numbers of the recordings card: sizes, lengths, why a recording was kept. */
import type { KeepReason, RecorderStatus } from '../../../../server/contract/recordings.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function formatLength(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return s === 0 ? `${m} min` : `${m} min ${s} s`;
}

export const REASON_LABEL: Record<KeepReason, string> = { manual: 'saved', stop: 'STOP' };

/** The recorder's state in one line. */
export function recorderLine(status: RecorderStatus | null): string {
  if (!status) return 'Reading the recorder…';
  if (!status.recording) return 'The recorder is not running.';
  const held = `${formatLength(status.ringSeconds)} (${formatBytes(status.ringBytes)})`;
  const bound = `last ${status.maxMinutes} min, at most ${formatBytes(status.maxBytes)}`;
  return `Recording always: ${held} held of the ${bound}.`;
}

/** Frames go into the recording: the switch is on and the rate above 0. */
export function cameraRecorded(status: RecorderStatus | null): boolean {
  return status !== null && status.camera && status.cameraFps > 0;
}

export function cameraLine(status: RecorderStatus | null): string {
  if (!status) return '';
  if (!status.camera) return 'Camera recording is off: recordings hold no pictures.';
  if (status.cameraFps === 0) return 'Camera recording is on, at 0 frames per second (ROBOT_RECORD_FPS).';
  return `Camera recording is on: ${status.cameraFps} frames per second go into the recording.`;
}

/** A file name for the download: the recording's name made safe. */
export function downloadName(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .trim()
    .slice(0, 80);
  return `${safe || 'recording'}.mcap`;
}

/** Minutes the operator may save: the usual choices up to the ring's length. */
export function minuteChoices(maxMinutes: number): number[] {
  const list = [1, 2, 5, 10, 30, 60].filter((m) => m <= maxMinutes);
  return list.includes(maxMinutes) ? list : [...list, maxMinutes];
}
