/**
 * /ws/voice (docs/contract.md, "Events"): binary PCM16 frames in; one
 * {type: "voice_meta", rate} first, then {type: "audio", data: base64} frames out; {type: "stop"}
 * ends the session (the answer to what was said follows, then the socket closes). Which voice
 * answers follows the dashboard's voice settings, read when the socket opens.
 */
import type { RawData } from 'ws';
import type { CredentialKind } from '../../contract/ws.ts';
import type { WsClient } from '../../http/ws-hub.ts';
import type { Log } from '../../log.ts';
import type { SpeechEngine } from '../../speech/engine.ts';
import { createOpenAiTranscriber } from '../../speech/transcriber.ts';
import type { WheeledAgent } from '../chat/wheeled-agent.ts';
import { WHEELED_PROMPT } from '../chat/wheeled-agent.ts';
import { createOfflineVoice, type OfflineVoiceIo, type VoiceSession } from './offline-voice.ts';
import { createRealtimeVoice } from './realtime-voice.ts';
import type { VoiceSettings } from './voice-settings.ts';

export interface VoiceSocketDeps {
  settings: Pick<VoiceSettings, 'current'>;
  agent: Pick<WheeledAgent, 'run' | 'configured'>;
  engine: SpeechEngine;
  log: Log;
  fetch?: typeof fetch;
}

function openSession(deps: VoiceSocketDeps, io: OfflineVoiceIo, credential: CredentialKind): VoiceSession {
  const config = deps.settings.current();
  if (config.provider === 'realtime' && config.realtime)
    return createRealtimeVoice({ io, config: config.realtime, instructions: WHEELED_PROMPT, log: deps.log });
  const transcription = config.transcription;
  return createOfflineVoice({
    io,
    agent: deps.agent,
    engine: deps.engine,
    transcriber: transcription
      ? createOpenAiTranscriber({
          baseUrl: transcription.baseUrl,
          model: transcription.model,
          key: transcription.key,
          fetch: deps.fetch,
        })
      : undefined,
    ...(transcription ? { transcriptionHost: new URL(transcription.baseUrl).host } : {}),
    credential,
    log: deps.log,
  });
}

/**
 * What may wait unsent for one browser: some minutes of speech. Past it the browser is not
 * keeping up (or a realtime endpoint floods), and the session ends rather than buffer on.
 */
const SEND_BUFFER_LIMIT = 4 * 1024 * 1024;
/**
 * What a spoken answer of the offline voice may have waiting unsent before its next frame waits
 * for the browser to take the last one: some seconds of speech ahead, well under the limit above.
 */
const IN_TURN_LIMIT = 1024 * 1024;

export function voiceSocketHandler(deps: VoiceSocketDeps): (client: WsClient) => void {
  return (client) => {
    // Audio frames are never dropped for a slow reader the way state frames are: each is a
    // piece of one sentence. They are small (100 ms ≈ 4-5 KB) and there are few of them, so a
    // browser that lets SEND_BUFFER_LIMIT pile up has stopped reading: the session ends, 1013.
    // The session, once open: an overrun ends it (none can come sooner: nothing is buffered yet).
    const open: { session?: VoiceSession } = {};
    let overrun = false;
    const io: OfflineVoiceIo = {
      send: (frame) => {
        if (overrun || client.ws.readyState !== client.ws.OPEN) return;
        if (client.ws.bufferedAmount > SEND_BUFFER_LIMIT) {
          overrun = true;
          deps.log.warn('voice socket: the browser is not keeping up; the session ends', {
            buffered: client.ws.bufferedAmount,
          });
          client.ws.close(1013, 'the browser is not keeping up');
          open.session?.close();
          return;
        }
        client.ws.send(JSON.stringify(frame));
      },
      sendInTurn: (frame) => {
        if (overrun || client.ws.readyState !== client.ws.OPEN) return Promise.resolve();
        const text = JSON.stringify(frame);
        if (client.ws.bufferedAmount + text.length <= IN_TURN_LIMIT) {
          client.ws.send(text);
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const done = () => {
            client.ws.off('close', done);
            resolve();
          };
          client.ws.on('close', done);
          client.ws.send(text, done);
        });
      },
      end: () => client.ws.close(1000, 'voice session over'),
    };
    const credential = (client.caller.kind === 'anonymous' ? 'token' : client.caller.kind) as CredentialKind;
    const opened = openSession(deps, io, credential);
    open.session = opened;
    client.onMessage((data: RawData, isBinary: boolean) => {
      if (isBinary)
        return opened.audio(
          Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data),
        );
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return io.send({ type: 'error', error: 'text frames must be JSON: {type: "stop"} or {type: "text", text}' });
      }
      const type = (message as { type?: unknown } | null)?.type;
      if (type === 'stop') return opened.stop();
      if (type === 'text') return opened.text((message as { text?: unknown }).text);
      io.send({ type: 'error', error: `unknown message type ${JSON.stringify(type ?? null)} (stop, text)` });
    });
    client.ws.on('close', () => opened.close());
  };
}
