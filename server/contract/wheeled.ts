/**
 * Wire shapes of the wheeled server (the wheeled robot), shared with its dashboard variant and tests.
 * Units: metres and m/s for position and speed, degrees and °/s for heading and turn rate;
 * heading is counter-clockwise from the odometry frame's +x axis (0° = "east" on the map).
 */
import type { TranscriptionView } from './personas.ts';

export type WheeledDriver = 'operator' | 'thinker';

/** GET/PUT /api/console/voice: how /ws/voice answers. Keys only as `hasKey`. */
export interface WheeledVoiceSettingsView {
  provider: 'offline' | 'realtime';
  realtime: { url: string; model: string; voice: string; hasKey: boolean } | null;
  /** null until an endpoint is set: offline voice then answers typed text only. */
  transcription: TranscriptionView | null;
}

export interface WheeledState {
  robot: 'wheeled';
  /** Epoch ms the values refer to. */
  time: number;
  backend: {
    kind: 'sim' | 'http';
    simulated: boolean;
    presence: 'connecting' | 'connected' | 'down';
    problem: string | null;
    battery: number | null;
  };
  pose: { x: number; y: number; heading: number };
  velocity: { linear: number; angular: number };
  wheels: { left: number; right: number } | null;
  /** The running frame; null while the base stands still. */
  driving: { driver: WheeledDriver; linear: number; angular: number; until: number } | null;
  gate: { open: boolean; changedAt: number | null };
  preset: string;
  limits: { maxLinear: number; maxAngular: number; maxFrameSeconds: number };
  /** Recent positions [x, y], oldest first; GET /api/state and the first /ws/state frame only. */
  trail?: Array<[number, number]>;
}

export type DrivePreset = 'slow' | 'normal' | 'fast';

/** GET and PUT /api/drive/settings: the speed presets, the thinker's drive gate and the base's limits. */
export interface DriveSettingsView {
  preset: DrivePreset;
  /** Each preset's share of top speed. */
  presets: Record<DrivePreset, number>;
  gate: WheeledState['gate'];
  limits: WheeledState['limits'];
}

export interface WheeledStateFrame extends WheeledState {
  type: 'state';
}

export interface WheeledHealth {
  ok: boolean;
  robot: 'wheeled';
  version: string;
  tls: boolean;
  backend: WheeledState['backend'];
  /** `configured` false: the base has no camera at all (the dashboard says so). */
  camera: { configured: boolean; status: 'live' | 'starting' | 'lost' | 'off'; fps: number };
  model: { configured: boolean };
  voice: { provider: 'offline' | 'realtime'; transcription: boolean };
  problems: Record<string, string>;
}

/** Frames the server sends on /ws/chat. */
export type ChatServerFrame =
  | { type: 'token'; data: string; complete: boolean }
  | { type: 'tool'; id: string; name: string; phase: 'start' | 'end'; input: unknown; result?: unknown; error?: string }
  | { type: 'reasoning'; data: string }
  | { type: 'done'; text: string; seconds: number }
  | { type: 'error'; error: string }
  | {
      type: 'control_ack';
      ok: boolean;
      stop?: boolean;
      applied?: { linear: number; angular: number; duration: number };
      clamped?: boolean;
      error?: string;
    }
  | { type: 'pong'; time: number };

/** Frames the server sends on /ws/voice. */
export type VoiceServerFrame =
  | { type: 'voice_meta'; rate: number; provider: 'offline' | 'realtime'; transcription: boolean; note: string }
  | { type: 'audio'; data: string }
  | { type: 'transcript'; role: 'user' | 'assistant'; text: string }
  | { type: 'done' }
  | { type: 'error'; error: string };

export interface ServiceTokenInfo {
  id: string;
  sub: string;
  name: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  state: 'active' | 'expired' | 'revoked';
}

export interface SessionTokenAnswer {
  ok: true;
  token: string;
  tokenExpiresAt: number;
  sessionExpiresAt: number;
}
