/**
 * The fake transcription endpoint answers like the documented API: a curl-style multipart
 * request (`-F file=@speech.wav -F model=whisper-1`) gets `{"text": "..."}`; response_format
 * text gets the bare text; errors are `{error: {message, type, param, code}}` with 400/401.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pcm16Wav } from '../../../speech/wav.ts';
import { startFakeTranscription, type FakeTranscription } from './fake-transcription.ts';
import { synth } from './synthetic-audio.ts';

let fake: FakeTranscription;
beforeEach(async () => {
  fake = await startFakeTranscription({ key: 'sk-test', script: () => 'Hello robot.' });
});
afterEach(() => fake.close());

/** A multipart body written by hand, as curl would send it. */
function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
): { body: Buffer; type: string } {
  const boundary = '------------------------d74496d66958873e';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

const wav = pcm16Wav(synth([{ tone: 1500 }]), 16_000);

async function post(fields: Record<string, string>, file?: { name: string; data: Buffer }, key = 'sk-test') {
  const { body, type } = multipart(fields, file);
  const res = await fetch(`${fake.url}/audio/transcriptions`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: `Bearer ${key}` },
    body,
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('fake transcription endpoint', () => {
  it('answers the documented json shape and records the audio', async () => {
    const res = await post({ model: 'whisper-1' }, { name: 'speech.wav', data: wav });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ text: 'Hello robot.' });
    expect(fake.requests).toEqual([
      {
        model: 'whisper-1',
        filename: 'speech.wav',
        responseFormat: 'json',
        language: null,
        sampleRate: 16_000,
        channels: 1,
        seconds: 1.5,
      },
    ]);
  });

  it('answers plain text for response_format text', async () => {
    const res = await post({ model: 'whisper-1', response_format: 'text' }, { name: 'speech.wav', data: wav });
    expect(res.type).toMatch(/^text\/plain/);
    expect(res.text).toBe('Hello robot.\n');
  });

  it.each([
    [{}, { name: 'a.wav', data: wav }, 400, 'model', /you must provide a model parameter/],
    [{ model: 'whisper-1' }, undefined, 400, 'file', /field required/],
    [{ model: 'whisper-1' }, { name: 'a.txt', data: Buffer.from('not audio') }, 400, 'file', /Invalid file format/],
  ])('refuses %o with %s', async (fields, file, status, param, message) => {
    const res = await post(fields, file);
    expect(res.status).toBe(status);
    const body = JSON.parse(res.text) as { error: { message: string; type: string; param: string | null; code: null } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param, code: null });
    expect(body.error.message).toMatch(message);
  });

  it('refuses a wrong key with 401 invalid_api_key', async () => {
    const res = await post({ model: 'whisper-1' }, { name: 'a.wav', data: wav }, 'sk-wrong');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  });
});
