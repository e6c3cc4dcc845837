/**
 * Push-to-talk over /ws/voice (server/wheeled/README-wheeled.md, "Sockets"): pressing opens the
 * socket; once voice_meta names the rate, the microphone streams PCM16 frames at that rate
 * (a ScriptProcessor: every browser has it, and 4096-sample blocks are plenty for speech);
 * releasing sends {type: "stop"}, and the answer's audio frames are played back to back
 * until the server closes the socket.
 */
import type { VoiceServerFrame } from '../../../../server/contract/wheeled.ts';
import { floatToPcm16, pcm16Base64ToFloat } from './pcm-audio.ts';
import { socketUrl } from './wheeled-api.ts';

export type TalkState = 'idle' | 'connecting' | 'listening' | 'answering';

export class PushToTalk {
  state = $state<TalkState>('idle');
  note = $state<string | null>(null);
  problem = $state<string | null>(null);
  heard = $state<string | null>(null);
  said = $state<string | null>(null);
  #ws: WebSocket | null = null;
  #audio: AudioContext | null = null;
  #mic: { stream: MediaStream; node: ScriptProcessorNode; source: MediaStreamAudioSourceNode } | null = null;
  #rate = 0;
  #playAt = 0;
  #released = false;
  readonly #token: () => string | null;

  constructor(token: () => string | null) {
    this.#token = token;
  }

  press(): void {
    const token = this.#token();
    if (this.state !== 'idle' || !token) return;
    this.problem = null;
    this.heard = this.said = null;
    this.#released = false;
    this.state = 'connecting';
    // Created inside the press: browsers let audio start only from a user gesture.
    this.#audio = new AudioContext();
    const ws = new WebSocket(socketUrl(window.location, 'voice', token));
    this.#ws = ws;
    ws.onmessage = (event) => this.#frame(JSON.parse(String(event.data)) as VoiceServerFrame);
    ws.onclose = () => this.#finish();
  }

  release(): void {
    this.#released = true;
    this.#stopMic();
    if (this.#ws?.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify({ type: 'stop' }));
      this.state = 'answering';
    }
  }

  #frame(frame: VoiceServerFrame): void {
    if (frame.type === 'voice_meta') {
      this.#rate = frame.rate;
      this.note = frame.note;
      if (this.#released) this.release();
      else void this.#startMic();
    } else if (frame.type === 'audio') this.#play(frame.data);
    else if (frame.type === 'transcript') {
      if (frame.role === 'user') this.heard = frame.text;
      else this.said = frame.text;
    } else if (frame.type === 'error') this.problem = frame.error;
  }

  async #startMic(): Promise<void> {
    const audio = this.#audio;
    if (!audio) return;
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true } });
      if (this.#released) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      const source = audio.createMediaStreamSource(stream);
      const node = audio.createScriptProcessor(4096, 1, 1);
      node.onaudioprocess = (event) => {
        if (this.#ws?.readyState === WebSocket.OPEN)
          this.#ws.send(floatToPcm16(event.inputBuffer.getChannelData(0), audio.sampleRate, this.#rate));
      };
      source.connect(node);
      node.connect(audio.destination);
      this.#mic = { stream, node, source };
      this.state = 'listening';
    } catch (error) {
      this.problem = `The microphone is not available: ${(error as Error).message}`;
      this.release();
    }
  }

  #play(data: string): void {
    const audio = this.#audio;
    if (!audio || this.#rate === 0) return;
    const samples = pcm16Base64ToFloat(data);
    if (samples.length === 0) return;
    const buffer = audio.createBuffer(1, samples.length, this.#rate);
    buffer.getChannelData(0).set(samples);
    const source = audio.createBufferSource();
    source.buffer = buffer;
    source.connect(audio.destination);
    this.#playAt = Math.max(this.#playAt, audio.currentTime);
    source.start(this.#playAt);
    this.#playAt += buffer.duration;
  }

  #stopMic(): void {
    if (!this.#mic) return;
    this.#mic.node.disconnect();
    this.#mic.source.disconnect();
    for (const track of this.#mic.stream.getTracks()) track.stop();
    this.#mic = null;
  }

  #finish(): void {
    this.#stopMic();
    this.#ws = null;
    const audio = this.#audio;
    // Let the queued answer play out before the audio context goes.
    const left = audio ? Math.max(0, this.#playAt - audio.currentTime) : 0;
    setTimeout(() => void audio?.close(), left * 1000 + 200);
    this.#audio = null;
    this.#playAt = 0;
    this.state = 'idle';
  }
}
