/**
 * Answers longer than the cockpit reads (http-body.ts): each server below sends a valid answer
 * far past its caller's ceiling, so a caller that reads it whole succeeds, or shows the start of
 * it, where it must fail with a sentence saying how long the answer was allowed to be.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from './agent/providers/testing/collect.ts';
import { createOpenAiProvider } from './agent/providers/openai-compatible.ts';
import { readBytesUpTo, readJsonUpTo } from './http-body.ts';
import { createBotApi } from './personas/messenger/bot-api.ts';
import { synth } from './personas/voice/testing/synthetic-audio.ts';
import { createOpenAiTranscriber } from './speech/transcriber.ts';
import { pcm16Wav } from './speech/wav.ts';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(res));
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A JSON object of about `bytes` bytes whose members make a valid answer of each kind, sent chunked. */
function paddedAnswer(status: number, bytes: number) {
  return (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"ok":true,"result":[],"text":"heard","error":{"message":"overloaded"},"pad":"');
    const piece = 'x'.repeat(64 * 1024);
    for (let sent = 0; sent < bytes; sent += piece.length) res.write(piece);
    res.end('"}');
  };
}

const MiB = 1024 * 1024;
const signal = () => new AbortController().signal;

describe('readBytesUpTo', () => {
  it('reads a body of exactly the ceiling, refuses one byte more, and a declared length past it unread', async () => {
    const body = new Uint8Array(1000).fill(7);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 300) controller.enqueue(body.slice(i, i + 300));
        controller.close();
      },
    });
    expect(new Uint8Array((await readBytesUpTo(new Response(chunks), 1000))!)).toEqual(body);
    expect(await readBytesUpTo(new Response(body), 999)).toBeNull();
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const declared = new Response(never, { headers: { 'content-length': '1001' } });
    expect(await readBytesUpTo(declared, 1000)).toBeNull();
  });

  it('reads JSON, and answers undefined for a body that is not JSON', async () => {
    expect(await readJsonUpTo(new Response('{"a":1}'), 100)).toEqual({ a: 1 });
    expect(await readJsonUpTo(new Response('<html>'), 100)).toBeUndefined();
    expect(await readJsonUpTo(new Response('null'), 100)).toBeNull();
    await expect(readJsonUpTo(new Response('"0123456789"'), 4)).rejects.toThrow('the answer is longer than 4 bytes');
  });
});

describe('callers of another program stop at their ceiling', () => {
  it('a model server error body past 64 KiB is not shown', async () => {
    const url = await serve(paddedAnswer(500, MiB));
    const provider = createOpenAiProvider({ baseUrl: url, model: 'm' });
    expect((await collect(provider)).last).toEqual({ type: 'error', error: 'the model server answered 500' });
  });

  it('a bot API answer past 4 MiB is a failed call', async () => {
    const url = await serve(paddedAnswer(200, 8 * MiB));
    const bot = createBotApi({ baseUrl: url, token: '123:abc', timeoutMs: 60_000 });
    await expect(bot.getMe(signal())).rejects.toMatchObject({
      name: 'BotApiError',
      code: 0,
      description: "the bot API's answer is longer than 4 MiB",
    });
  });

  it('a transcription answer past 1 MiB is a failed transcription', async () => {
    const url = await serve(paddedAnswer(200, 2 * MiB));
    const transcriber = createOpenAiTranscriber({ baseUrl: url, model: 'whisper-1', timeoutMs: 60_000 });
    const wav = pcm16Wav(synth([{ tone: 750 }]), 16_000);
    await expect(transcriber.transcribe(wav, signal())).rejects.toThrow(
      'transcription failed: the answer is longer than 1 MiB',
    );
  });
});
