/**
 * Black box routes (console, always keyed; server/recorder/README-recorder.md): the recorder's
 * status and kept recordings, "save the last N minutes", rename, delete, the `.mcap` download,
 * and what the dashboard's replay reads (the summary, then one frame at the cursor).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Context } from 'koa';
import type { RecordingsView, SaveRecordingInput } from '../../contract/recordings.ts';
import { AppError } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { NAME_MAX } from '../../recorder/kept-store.ts';
import { buildReplay, frameAt, type Recorder } from '../../recorder/index.ts';

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

function objectBody(u: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (!isObject(u)) throw new AppError('BAD_REQUEST', 'body must be a JSON object');
  const unknown = Object.keys(u).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', `unknown field ${JSON.stringify(unknown[0])}`);
  return u;
}

function nameOf(u: unknown): string {
  const ok =
    typeof u === 'string' &&
    u.trim().length >= 1 &&
    u.length <= NAME_MAX &&
    ![...u].some((c) => c < ' ' || c === '\x7f');
  if (!ok) throw new AppError('BAD_REQUEST', `name must be 1-${NAME_MAX} characters without control characters`);
  return u.trim();
}

export function parseSave(u: unknown): SaveRecordingInput {
  const body = objectBody(u, ['minutes', 'name']);
  if (typeof body.minutes !== 'number' || !Number.isFinite(body.minutes))
    throw new AppError('BAD_REQUEST', 'minutes must be a number');
  return { minutes: body.minutes, ...(body.name !== undefined ? { name: nameOf(body.name) } : {}) };
}

/** A download name: the recording's name with anything a file system dislikes replaced. */
export function fileNameOf(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${safe || 'recording'}.mcap`;
}

export function recordingRoutes(recorder: Recorder): RouteSpec[] {
  const view = (): RecordingsView => ({ recorder: recorder.status(), recordings: recorder.kept.list() });
  const idOf = (ctx: Context) => String(ctx.params.id ?? '');
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');
  return [
    {
      method: 'GET',
      path: '/api/console/recordings',
      access: 'key',
      summary:
        'black box: {recorder: {recording, camera, cameraFps, maxMinutes, maxBytes, ringBytes, ringSeconds, dropped, pendingStops, problem}, recordings: [kept, newest first]}',
      handler(ctx) {
        noStore(ctx);
        ctx.body = view();
      },
    },
    {
      method: 'POST',
      path: '/api/console/recordings',
      access: 'key',
      control: true,
      summary:
        'keep the last {minutes} (above 0, at most the ring) as a recording, {name?} 1-80 chars; 201 with the recording',
      async handler(ctx) {
        const input = parseSave(await readJsonBody(ctx));
        const kept = await recorder.keepLast(input.minutes, input.name);
        ctx.status = 201;
        ctx.body = kept;
      },
    },
    {
      method: 'PUT',
      path: '/api/console/recordings/:id',
      access: 'key',
      control: true,
      summary: 'rename a kept recording: {name} 1-80 chars',
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['name']);
        ctx.body = await recorder.kept.rename(idOf(ctx), nameOf(body.name));
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/recordings/:id',
      access: 'key',
      control: true,
      summary: 'delete a kept recording and its file; answers {deleted: id}',
      async handler(ctx) {
        const id = idOf(ctx);
        await recorder.kept.remove(id);
        ctx.body = { deleted: id };
      },
    },
    {
      method: 'GET',
      path: '/api/console/recordings/:id/file',
      access: 'key',
      summary: 'download a kept recording (.mcap: Foxglove, Lichtblick and the MCAP tools open it)',
      async handler(ctx) {
        const id = idOf(ctx);
        const entry = recorder.kept.get(id);
        const file = await recorder.kept.readable(id);
        noStore(ctx);
        ctx.type = 'application/octet-stream';
        ctx.attachment(fileNameOf(entry.name));
        ctx.length = (await stat(file)).size;
        ctx.body = createReadStream(file);
      },
    },
    {
      method: 'GET',
      path: '/api/console/recordings/:id/replay',
      access: 'key',
      summary:
        'what the replay draws: {start, duration, poses, markers (stop, input), lines, health, frames} (ms from the start)',
      async handler(ctx) {
        const id = idOf(ctx);
        noStore(ctx);
        ctx.body = await buildReplay(await recorder.kept.readable(id), recorder.kept.get(id));
      },
    },
    {
      method: 'GET',
      path: '/api/console/recordings/:id/frame',
      access: 'key',
      summary: 'the camera frame at t (ms from the start) of a kept recording (image/jpeg); 404 when it has none',
      async handler(ctx) {
        const id = idOf(ctx);
        const t = Number(ctx.query.t ?? 0);
        if (!Number.isFinite(t) || t < 0)
          throw new AppError('BAD_REQUEST', 't must be milliseconds from the start, 0 or more');
        const entry = recorder.kept.get(id);
        const jpeg = await frameAt(await recorder.kept.readable(id), Date.parse(entry.startedAt), t);
        if (!jpeg) throw new AppError('NOT_FOUND', 'this recording has no camera frames');
        ctx.set('Cache-Control', 'private, max-age=3600');
        ctx.type = 'image/jpeg';
        ctx.body = jpeg;
      },
    },
    {
      method: 'PUT',
      path: '/api/console/recorder',
      access: 'key',
      control: true,
      summary:
        'recorder settings: {camera: boolean} records camera frames or not (privacy); answers the recorder status',
      async handler(ctx) {
        const body = objectBody(await readJsonBody(ctx), ['camera']);
        if (typeof body.camera !== 'boolean') throw new AppError('BAD_REQUEST', 'camera must be true or false');
        await recorder.setCamera(body.camera);
        ctx.body = recorder.status();
      },
    },
  ];
}
