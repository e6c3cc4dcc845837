/**
 * The robot on the hosted agent platform: the platform client's status snapshot, what
 * GET /api/console/platform answers and `{type: "platform"}` frames carry. One declaration for
 * the client, the cockpit and the dashboard. It never holds a token: the identity appears only
 * as platform URL and device id, the owner session only as where it comes from. Times are epoch
 * milliseconds.
 */

/** Where the firmware pointer stands. */
export type FirmwareState =
  | 'disabled'
  | 'idle'
  | 'checking'
  | 'up_to_date'
  | 'downloading'
  | 'staged'
  | 'applying'
  | 'applied'
  | 'refused'
  /** The platform has no firmware route (it answers 404): nothing to update from; asked again hourly. */
  | 'unoffered'
  | 'failed';

export interface FirmwareStatus {
  state: FirmwareState;
  channel: string;
  currentVersion: string | null;
  /** Version the platform points at, when newer or forced. */
  available: string | null;
  /** Version verified and staged in the data dir, waiting to be installed. */
  staged: string | null;
  lastCheckedAt: number | null;
  message: string | null;
  /** The operator lets a staged bundle be installed once the robot is idle (off by default). */
  installAllowed: boolean;
  /** How this console installs a bundle, e.g. `hook /usr/local/bin/x`; null when it cannot. */
  installer: string | null;
}

/**
 * Why the fast loops are halted: the token was refused under the strike policy, or the owner's
 * session showed at once that it was rotated (POST /api/devices/adopt elsewhere) or the device
 * was removed.
 */
export interface HaltReason {
  reason: 'token_rejected' | 'token_rotated' | 'device_removed';
  since: number;
  message: string;
}

/**
 * The platform refused the device token. Told to the owner at the first refusal (dashboard, tray,
 * push), with what the console can offer: `adopt` re-keys this device with the stored owner
 * session (POST /api/devices/adopt), `enrol` needs a new enrolment (pasted token or session).
 */
export interface TokenNotice {
  /** rotated: still listed, new token elsewhere; removed: no longer listed; refused: cannot tell. */
  kind: 'rotated' | 'removed' | 'refused';
  since: number;
  message: string;
  offer: 'adopt' | 'enrol';
}

/** The last failure worth showing; `kind` is one of the client's failure kinds. */
export interface PlatformLastError {
  kind: string;
  message: string;
  at: number;
}

export interface PlatformStatus {
  enrolled: boolean;
  /** Where the identity came from: pasted and stored, or the host's environment. */
  identitySource: 'stored' | 'env' | null;
  platformUrl: string | null;
  deviceId: string | null;
  /** Loops are running (false after a disconnect). */
  connected: boolean;
  /** A heartbeat succeeded within the 60 s presence window and nothing halted. */
  online: boolean;
  lastHeartbeatAt: number | null;
  envelopesHandled: number;
  lastError: PlatformLastError | null;
  unread: number | null;
  halted: HaltReason | null;
  /** The platform refused the device token: what the owner is told and offered; null while accepted. */
  tokenNotice: TokenNotice | null;
  /** Where the owner's session token for use_device comes from; null when none is configured. */
  ownerSession: 'stored' | 'env' | null;
  firmware: FirmwareStatus;
}

/** The status as it leaves the cockpit; `available: false` means no platform client is wired in. */
export type PlatformStatusView = PlatformStatus & { available: true };

/**
 * The platform chat stream as the 'platform' model provider uses it (POST /api/chat, docs/platform.md
 * "Chat stream"). Declared here once for the platform client, which implements it, and the agent
 * runtime, which consumes it (server/ may not import the client, docs/architecture.md, "Folders and the direction of imports").
 */
export interface PlatformChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

/** A robot tool the platform's agent may call; it runs on the robot (client-side). */
export interface PlatformClientTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A tool call as the stream names it; `input` is the parsed JSON input. */
export interface PlatformToolCall {
  name: string;
  toolUseId: string;
  input: unknown;
}

/** What a client-side tool produced: text (JSON of its result, or the error) and images. */
export interface PlatformToolOutcome {
  isError: boolean;
  text: string;
  images?: Array<{ mediaType: string; base64: string }>;
}

export interface PlatformChatInput {
  /** The conversation, oldest first; the client keeps within the platform's 31-message window. */
  messages: readonly PlatformChatMessage[];
  /** The robot's tools, run on `beforeToolCallEvent` and answered through POST /api/chat/tool-result. */
  tools: readonly PlatformClientTool[];
  runTool(call: PlatformToolCall): Promise<PlatformToolOutcome>;
  signal: AbortSignal;
}

/**
 * What the stream yields, in order. It ends with exactly one `done` or `error` and never throws.
 * `tool_start` / `tool_end` report the platform's own (server-side) tools; client-side ones are
 * reported by whoever runs them.
 */
export type PlatformChatEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_start'; call: PlatformToolCall }
  | { type: 'tool_end'; call: PlatformToolCall; outcome: { result: unknown } | { error: string } }
  | { type: 'notice'; text: string }
  | { type: 'done'; stopReason: string }
  | { type: 'error'; error: string };

/** The platform client's chat, as the agent runtime needs it. */
export interface PlatformChat {
  chat(input: PlatformChatInput): AsyncIterable<PlatformChatEvent>;
}
