/**
 * The smaller device routes: task-result, event, transcript and media. Each
 * input is checked against the documented limits before anything is sent (docs/platform.md, "Devices"), so an oversized call fails here as a value instead of at the worker.
 */
import type { DeviceApi } from './device-api.ts';
import {
  CADENCE,
  EVENT_KINDS,
  LIMITS,
  MEDIA_TYPES,
  PATHS,
  TASK_ID_PATTERN,
  TEXT_MEDIA_TYPE,
  type DeviceEventKind,
} from './limits.ts';
import type { Outcome, PlatformFailure } from './types.ts';

/** A finished background task to deposit (redeemable through use_device result). */
export interface TaskResultInput {
  taskId: string;
  summary?: string;
  result?: string;
}

/** An on-device transcription. */
export interface TranscriptInput {
  text: string;
  label?: string;
  audioUrl?: string;
  durationS?: number;
}

/** Bytes to store through POST /api/media. */
export interface MediaInput {
  data: Uint8Array;
  contentType: string;
}

/** What POST /api/media answers: the key and the worker URL that serves it. */
export interface StoredMedia {
  key: string;
  url: string;
  bytes: number;
}

/** The validated device routes. */
export interface DeviceRoutes {
  taskResult(input: TaskResultInput): Promise<Outcome<{ ticket: string }>>;
  event(kind: DeviceEventKind, detail?: string): Promise<Outcome<void>>;
  transcript(input: TranscriptInput): Promise<Outcome<{ id: string }>>;
  media(input: MediaInput): Promise<Outcome<StoredMedia>>;
}

const utf8 = new TextEncoder();

/** A limit refusal: decided here, before sending, so it is never worth retrying. */
function refuse(kind: 'bad_request' | 'too_large', message: string): PlatformFailure {
  return { kind, message, retryable: false };
}

/** Checks a task result against docs/platform.md, "Devices": id pattern, summary ≤140, result ≤7000 characters. */
export function checkTaskResult(input: TaskResultInput): PlatformFailure | null {
  if (!TASK_ID_PATTERN.test(input.taskId)) return refuse('bad_request', 'taskId must match [A-Za-z0-9_-]{1,48}');
  if ((input.summary?.length ?? 0) > LIMITS.taskSummaryChars)
    return refuse('too_large', `summary is over ${LIMITS.taskSummaryChars} characters`);
  if ((input.result?.length ?? 0) > LIMITS.taskResultChars)
    return refuse('too_large', `result is over ${LIMITS.taskResultChars} characters`);
  return null;
}

/** Checks a device event: the kind allowlist and detail ≤300 characters (docs/platform.md, "Devices"). */
export function checkEvent(kind: string, detail: string | undefined): PlatformFailure | null {
  if (!(EVENT_KINDS as readonly string[]).includes(kind))
    return refuse('bad_request', `event kind must be one of ${EVENT_KINDS.join(', ')}`);
  if ((detail?.length ?? 0) > LIMITS.eventDetailChars)
    return refuse('too_large', `detail is over ${LIMITS.eventDetailChars} characters`);
  return null;
}

/** Checks a transcript: text ≤16 KB, label ≤80, audioUrl https ≤300, integer durationS (docs/platform.md, "Devices"). */
export function checkTranscript(input: TranscriptInput): PlatformFailure | null {
  if (input.text.length === 0) return refuse('bad_request', 'transcript text is empty');
  if (utf8.encode(input.text).byteLength > LIMITS.transcriptTextBytes)
    return refuse('too_large', 'transcript text is over 16 KB');
  if ((input.label?.length ?? 0) > LIMITS.transcriptLabelChars)
    return refuse('too_large', `label is over ${LIMITS.transcriptLabelChars} characters`);
  if (
    input.audioUrl !== undefined &&
    (!input.audioUrl.startsWith('https://') || input.audioUrl.length > LIMITS.transcriptAudioUrlChars)
  ) {
    return refuse('bad_request', `audioUrl must be https and at most ${LIMITS.transcriptAudioUrlChars} characters`);
  }
  if (input.durationS !== undefined && !Number.isInteger(input.durationS))
    return refuse('bad_request', 'durationS must be an integer');
  return null;
}

/** Checks media: one of the stored types and at most 6 MB (6,000,000 bytes, docs/platform.md, "Devices"). */
export function checkMedia(input: MediaInput): PlatformFailure | null {
  if (!(MEDIA_TYPES as readonly string[]).includes(input.contentType) && input.contentType !== TEXT_MEDIA_TYPE)
    return refuse('bad_request', `media type ${input.contentType} is not stored by the platform`);
  if (input.data.byteLength === 0) return refuse('bad_request', 'media is empty');
  if (input.data.byteLength > LIMITS.mediaBytes) return refuse('too_large', 'media is over 6 MB');
  return null;
}

function malformed(route: string): { ok: false; failure: PlatformFailure } {
  return {
    ok: false,
    failure: {
      kind: 'bad_response',
      message: `platform answered ${route} without the documented fields`,
      retryable: true,
    },
  };
}

/** Creates the validated device routes over the device transport. */
export function createDeviceRoutes(api: DeviceApi): DeviceRoutes {
  return {
    async taskResult(input) {
      const bad = checkTaskResult(input);
      if (bad) return { ok: false, failure: bad };
      const out = await api.call('POST', PATHS.taskResult, { ...input });
      if (!out.ok) return out;
      const ticket = out.value.body.ticket;
      return typeof ticket === 'string' ? { ok: true, value: { ticket } } : malformed('task-result');
    },
    async event(kind, detail) {
      const bad = checkEvent(kind, detail);
      if (bad) return { ok: false, failure: bad };
      const out = await api.call('POST', PATHS.event, detail === undefined ? { kind } : { kind, detail });
      return out.ok ? { ok: true, value: undefined } : out;
    },
    async transcript(input) {
      const bad = checkTranscript(input);
      if (bad) return { ok: false, failure: bad };
      const out = await api.call('POST', PATHS.transcript, { ...input });
      if (!out.ok) return out;
      const id = out.value.body.id;
      return typeof id === 'string' || typeof id === 'number'
        ? { ok: true, value: { id: String(id) } }
        : malformed('transcript');
    },
    async media(input) {
      const bad = checkMedia(input);
      if (bad) return { ok: false, failure: bad };
      const data = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength).toString('base64');
      const out = await api.call('POST', PATHS.media, { data, contentType: input.contentType }, CADENCE.mediaTimeoutMs);
      if (!out.ok) return out;
      const { key, url, bytes } = out.value.body;
      if (typeof key !== 'string' || typeof url !== 'string') return malformed('media');
      return { ok: true, value: { key, url, bytes: typeof bytes === 'number' ? bytes : input.data.byteLength } };
    },
  };
}
