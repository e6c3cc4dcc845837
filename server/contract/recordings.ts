/**
 * The black box recorder's wire shapes: the recorder status, kept recordings and the replay
 * summary the dashboard draws (routes in server/desktop/routes/recording-routes.ts).
 */

/** Why a recording was kept: the operator asked, or a STOP kept its window by itself. */
export type KeepReason = 'manual' | 'stop';

export interface RecorderStatus {
  /** The ring is being written. */
  recording: boolean;
  /** Camera frames go into the ring (switchable off for privacy). */
  camera: boolean;
  /** Camera frames per second recorded while `camera` is on. */
  cameraFps: number;
  /** The ring's bounds. */
  maxMinutes: number;
  maxBytes: number;
  /** What the ring holds now. */
  ringBytes: number;
  ringSeconds: number;
  /** Messages handed to the recorder since it started, by channel topic (`/camera/jpeg`...). */
  channels: Record<string, number>;
  /** Messages not written because the disk queue was full (never the state fan-out waiting). */
  dropped: number;
  /**
   * STOPs whose window is still being recorded, as epoch ms. STOPs whose windows overlap share
   * one recording, kept 30 s after the last of them (server/recorder/stop-windows.ts).
   */
  pendingStops: number[];
  /** The last write problem, if any. */
  problem: string | null;
}

export interface KeptRecording {
  id: string;
  name: string;
  reason: KeepReason;
  /** ISO times: when it was kept, and the first and last recorded moments. */
  keptAt: string;
  startedAt: string;
  endedAt: string;
  /** Length in seconds and file size in bytes. */
  seconds: number;
  bytes: number;
  messages: number;
}

export interface RecordingsView {
  recorder: RecorderStatus;
  recordings: KeptRecording[];
}

/** POST /api/console/recordings: keep the last `minutes` (1 to the ring's length). */
export interface SaveRecordingInput {
  minutes: number;
  name?: string;
}

/** One pose sample of the replay, in the dashboard's units (degrees, millimetres). */
export interface ReplayPose {
  /** Milliseconds from the start of the recording. */
  t: number;
  head: { x: number; y: number; z: number; roll: number; pitch: number; yaw: number };
  bodyYaw: number;
  antennas: { right: number; left: number };
}

export type ReplayMarkerKind = 'stop' | 'input';

export interface ReplayMarker {
  t: number;
  kind: ReplayMarkerKind;
  text: string;
}

export interface ReplayLine {
  t: number;
  /** `agent` for agent log rows, `event` for receipts. */
  source: 'agent' | 'event';
  text: string;
}

export interface ReplayHealth {
  t: number;
  ok: boolean;
  presence: string;
  camera: string;
  problems: string[];
}

/** GET /api/console/recordings/:id/replay. Frames come one by one from `/frame?t=`. */
export interface ReplaySummary {
  id: string;
  name: string;
  /** Epoch ms of the first message; every `t` counts from here. */
  start: number;
  /** Length in milliseconds. */
  duration: number;
  poses: ReplayPose[];
  markers: ReplayMarker[];
  lines: ReplayLine[];
  health: ReplayHealth[];
  /** Offsets of the recorded camera frames. */
  frames: number[];
}
