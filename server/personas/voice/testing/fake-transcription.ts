/**
 * A fake OpenAI-compatible transcription endpoint for tests: `POST /v1/audio/transcriptions`,
 * checked like the real API (bearer key when one is configured, multipart/form-data, a `model`
 * field, a `file` that is a readable audio file: here, a RIFF/WAVE) and answered `{text}` for
 * response_format json (the default), the bare text for `text`, or `{error: {message, type,
 * param, code}}` with the matching status. What the "model" heard is scripted per request;
 * every accepted request is recorded with the audio's length for assertions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { boundaryOf, parseMultipart, type Part } from '../../../sim/multipart.ts';
import { readWavInfo } from '../../../speech/wav.ts';

export interface TranscriptionRequest {
  model: string;
  filename: string | null;
  responseFormat: string;
  language: string | null;
  sampleRate: number;
  channels: number;
  seconds: number;
}

export type TranscriptionReply = string | { status: number; message: string; code?: string };
export type TranscriptionScript = (request: TranscriptionRequest) => TranscriptionReply | Promise<TranscriptionReply>;

export interface FakeTranscription {
  /** The base URL a client is configured with (…/v1). */
  readonly url: string;
  readonly requests: TranscriptionRequest[];
  setScript(script: TranscriptionScript): void;
  close(): Promise<void>;
}

const apiError = (
  res: ServerResponse,
  status: number,
  message: string,
  code: string | null = null,
  param: string | null = null,
) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } }));
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const field = (parts: Part[], name: string) =>
  parts.find((p) => p.name === name && p.filename === null)?.data.toString('utf8');

function parseRequest(parts: Part[]): TranscriptionRequest | { error: string; param: string } {
  const model = field(parts, 'model');
  if (!model) return { error: 'you must provide a model parameter', param: 'model' };
  const file = parts.find((p) => p.name === 'file' && p.filename !== null);
  if (!file)
    return {
      error: '1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)',
      param: 'file',
    };
  try {
    const info = readWavInfo(file.data);
    return {
      model,
      filename: file.filename,
      responseFormat: field(parts, 'response_format') ?? 'json',
      language: field(parts, 'language') ?? null,
      sampleRate: info.sampleRate,
      channels: info.channels,
      seconds: info.seconds,
    };
  } catch {
    return {
      error:
        "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
      param: 'file',
    };
  }
}

async function handle(
  state: { key?: string; script: TranscriptionScript; requests: TranscriptionRequest[] },
  req: IncomingMessage,
  res: ServerResponse,
) {
  const body = await readBody(req);
  if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
    return apiError(res, 404, `Invalid URL (${req.method} ${req.url})`);
  if (state.key !== undefined && req.headers.authorization !== `Bearer ${state.key}`)
    return apiError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
  const boundary = boundaryOf(req.headers['content-type']);
  if (!boundary) return apiError(res, 400, 'Invalid Content-Type header, expected multipart/form-data');
  const parsed = parseRequest(parseMultipart(body, boundary));
  if ('error' in parsed) return apiError(res, 400, parsed.error, null, parsed.param);
  state.requests.push(parsed);
  const reply = await state.script(parsed);
  if (typeof reply !== 'string') return apiError(res, reply.status, reply.message, reply.code ?? null);
  if (parsed.responseFormat === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end(`${reply}\n`);
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ text: reply }));
}

export async function startFakeTranscription(
  options: { key?: string; script?: TranscriptionScript } = {},
): Promise<FakeTranscription> {
  const state = {
    ...(options.key !== undefined ? { key: options.key } : {}),
    script: options.script ?? (() => ''),
    requests: [] as TranscriptionRequest[],
  };
  const server = createServer(
    (req, res) => void handle(state, req, res).catch(() => apiError(res, 500, 'internal error')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    setScript: (script) => void (state.script = script),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
