/**
 * The device-facing wire contract of the hosted platform, as constants. Every path, string,
 * limit and cadence here is quoted from docs/platform.md (Devices, Limits, Errors) or from
 * docs/platform.md, "Devices"; the section is named next to each group so a reader can check it.
 */

/** Routes the device (and the owner session helpers) speak. docs/platform.md, "Devices". */
export const PATHS = Object.freeze({
  devices: '/api/devices',
  heartbeat: '/api/devices/heartbeat',
  relay: '/api/devices/relay',
  event: '/api/devices/event',
  taskResult: '/api/devices/task-result',
  transcript: '/api/devices/transcript',
  adopt: '/api/devices/adopt',
  media: '/api/media',
  firmware: '/api/firmware/manifest',
  ask: '/api/devices/ask',
  endpointChat: '/api/devices/endpoint/chat',
  chat: '/api/chat',
  chatToolResult: '/api/chat/tool-result',
});

/** Cadences of the original clients (docs/platform.md, "Devices"). */
export const CADENCE = Object.freeze({
  /** Also keeps the robot inside the 120 s window in which a web push is mirrored to it (docs/platform.md, "Devices"). */
  heartbeatMs: 30_000,
  presenceMs: 60_000,
  pollMs: 5_000,
  pollMax: 5,
  firmwareMs: 3_600_000,
  /** While a staged bundle waits for an idle robot and the operator's consent. */
  firmwareApplyRetryMs: 60_000,
  requestTimeoutMs: 15_000,
  /** Budget of one fleet turn: the platform's bound on a device chat turn ("Limits": 90 s). */
  fleetTurnMs: 90_000,
  /**
   * A fleet turn still running after this is answered in the requester's window ("still working",
   * with its task ticket) and finishes as a task result (§2.6 task-result, §3: "completed
   * background tasks are posted to task-result"). Inside use_device's 45 s wait with room for the
   * 5 s poll that claimed the envelope, the PATCH and the requester's 3 s polls (against a running
   * copy of the platform a 30 s note reached the requester 38 s after sending).
   */
  fleetAckMs: 25_000,
  backoffStepMs: 5_000,
  backoffCapMs: 60_000,
  /** Heartbeat period once the strike policy has halted the fast loops (docs/platform.md, "Errors", firmware). */
  haltedHeartbeatMs: 300_000,
  /** use_device: poll the reply every 3 s, 15 times = 45 s (docs/platform.md, "Devices"). */
  useDevicePollMs: 3_000,
  useDeviceWaitMs: 45_000,
  /** An endpoint device's chat turn is bounded at 90 s ("Limits"); the LR proxy's answer gets a margin. */
  endpointChatMs: 100_000,
  /**
   * POST /api/media: the proxy bounds its worker at 30 s for uploads (docs/platform.md, "Devices"), so the
   * device's 15 s would cut a slow upload the platform is still storing; 15 s of margin on top.
   */
  mediaTimeoutMs: 45_000,
});

/**
 * The device ask (docs/platform.md, "Devices", an LR route; docs/platform.md, "Devices"): text of at
 * most 4000 characters; the proxy bounds the worker at 75 s and sends `: thinking` every 10 s.
 */
export const ASK = Object.freeze({
  textChars: 4000,
  /** The proxy's 75 s bound plus a margin for its own answer to reach us. */
  overallMs: 80_000,
  /** Two and a half `: thinking` periods without a byte: the stream is dead. */
  idleMs: 25_000,
});

/** The 401 strike policy of the firmware (docs/platform.md, "Errors"). */
export const STRIKES = Object.freeze({ count: 3, spanMs: 300_000 });

/** Size and shape limits (docs/platform.md, "Limits", docs/platform.md, "Devices"). */
export const LIMITS = Object.freeze({
  /** Relay payload: valid JSON, at most 8192 bytes once serialised. */
  relayPayloadBytes: 8192,
  /** The most envelopes one relay claim may hand over (`max` 1-50, docs/platform.md, "Relay mailbox"). */
  relayClaimMax: 50,
  pushTitleChars: 100,
  pushBodyChars: 400,
  deviceNameChars: 64,
  platformChars: 32,
  capabilities: 32,
  capabilityChars: 32,
  /** The bearer secret of an endpoint device (docs/platform.md, "Devices"). */
  endpointSecretChars: 4096,
  taskSummaryChars: 140,
  taskResultChars: 7000,
  eventDetailChars: 300,
  /** "text up to 16 KB": measured in UTF-8 bytes, the stricter reading. */
  transcriptTextBytes: 16_384,
  transcriptLabelChars: 80,
  transcriptAudioUrlChars: 300,
  /** "up to 6 MB" of decoded media, in SI megabytes: the smaller reading, so both readings accept it. */
  mediaBytes: 6_000_000,
  firmwareVersionChars: 128,
  firmwareUrlChars: 512,
});

/**
 * The most the client reads of what the platform sends: the robot's own ceilings, not the
 * platform's limits. The largest answers it expects are the owner's device list, a relay claim
 * (at most 5 envelopes of 8192 bytes) and a firmware manifest; a chat frame is one delta.
 */
export const READ = Object.freeze({
  answerBytes: 4 * 1024 * 1024,
  manifestBytes: 1024 * 1024,
  /** One line, and one frame's data, of a server-sent event stream. */
  sseFrameChars: 1024 * 1024,
});

/** Pattern of a task id (docs/platform.md, "Devices"). */
export const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{1,48}$/;
/**
 * Shape of a device, session or command-line token: 8–512 printable characters without spaces.
 * Device tokens are `tind_` plus base64url (docs/platform.md, "Devices"); only the character set is checked, not the
 * prefix, so a format change does not lock anyone out.
 */
export const TOKEN_PATTERN = /^[\x21-\x7e]{8,512}$/;

/** Pattern of a firmware channel (docs/platform.md, "Devices"). */
export const CHANNEL_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Event kinds the worker accepts from a device (docs/platform.md, "Devices"). */
export const EVENT_KINDS = Object.freeze(['nicla_wake', 'nicla_sentry', 'nicla_transcript', 'device_note'] as const);
export type DeviceEventKind = (typeof EVENT_KINDS)[number];

/** Media types POST /api/media stores (docs/platform.md, "Devices"). */
export const MEDIA_TYPES = Object.freeze([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
] as const);

/**
 * How a text result over the relay limit is stored through POST /api/media. docs/platform.md
 * names no media types; docs/platform.md, "Devices" lists only image and audio ones, so a platform that
 * refuses this is answered by trimming instead (media-offload.ts).
 */
export const TEXT_MEDIA_TYPE = 'text/plain; charset=utf-8';

/**
 * Firmware files. The contract gives no size, so these are this client's choices
 * (platform-client/README.md): a cap well above a packaged console (an AppImage is a few hundred
 * MB), a slowest accepted rate that sizes each file's bound, and a retry soon after a transient
 * failure instead of the hourly poll.
 */
export const FIRMWARE = Object.freeze({
  maxBytes: 512 * 1024 * 1024,
  minBytesPerSecond: 128 * 1024,
  retryFirstMs: 60_000,
  retryCapMs: 900_000,
});

/** The platform chat stream (docs/platform.md, "Chat stream", "Limits"). */
export const CHAT = Object.freeze({
  /** The platform keeps the last 31 messages; the client sends no more, so none is dropped unseen. */
  historyMessages: 31,
  /** The platform sends `: ping` every 15000 ms: three missed pings and no frame, the stream is dead. */
  watchdogMs: 3 * 15_000,
});

/**
 * Exact error strings of the worker and its proxy. Clients classify on these strings
 * (docs/platform.md, "Errors", docs/platform.md, "Devices").
 */
export const WORKER_ERRORS = Object.freeze({
  deviceNotFound: 'device not found',
  payloadTooBig: 'payload must be valid JSON ≤8KB',
  unauthorized: 'unauthorized',
  unknownDevice: 'unknown device',
  envelopeNotFound: 'envelope not found',
  registryUnreachable: 'registry unreachable',
  loginRequired: 'login required',
});

/** The reply every envelope type we do not run receives (docs/platform.md, "Errors", CLI). */
export const UNSUPPORTED_ENVELOPE = 'unsupported envelope type';
