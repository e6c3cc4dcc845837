/**
 * The robot daemon's camera (daemon-api.md §6a, §10.8): one WebRTC session with webrtcsink
 * through its signalling server at ws://<robot>:8443. The flow is the one webrtcsink's
 * consumers use: `welcome`, `list` the producers, pick the one whose meta name is
 * "reachymini", `startSession`, answer the producer's offer, take its trickled candidates.
 * The source also registers as a listener, so when the camera producer comes back after an
 * outage (a media release elsewhere, a daemon restart) it hears `peerStatusChanged` and
 * starts a new session at once. It never touches /api/media: a camera that is not there is
 * waited for, not forced (cockpit-api.md, operational rules).
 */
import type { Log } from '../../log.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';
import { createH264FrameMaker, type H264FrameMaker } from '../h264/frame-maker.ts';
import { connectSignalling, type SignallingClient, type SignallingMessage } from './signalling-client.ts';
import { createConsumerSession, type ConsumerSession } from './webrtc-consumer.ts';

export interface WebrtcSourceOptions {
  /** The signalling server, e.g. `ws://127.0.0.1:8443`. */
  url: string;
  log: Log;
  /** The producer's meta name (default "reachymini"). */
  producerName?: string;
  connectTimeoutMs?: number;
  jpegQuality?: number;
  ffmpegBinary?: string;
}

/** After a session ends, wait this long before asking for the producers again. */
const RELIST_MS = 250;

interface Run {
  client: SignallingClient;
  frames: H264FrameMaker;
  session?: { id: string; consumer: ConsumerSession };
  /** startSession sent, sessionStarted not yet back: one request at a time, or the robot runs two. */
  requesting: boolean;
  relist?: NodeJS.Timeout;
  stopped: boolean;
}

/** The producer to watch: the one whose meta name matches, else the only one there is. */
export function pickProducer(producers: unknown, name: string): string | undefined {
  if (!Array.isArray(producers)) return undefined;
  const valid = producers.filter((p): p is { id: string; meta?: { name?: unknown } } => typeof p?.id === 'string');
  return (valid.find((p) => p.meta?.name === name) ?? (valid.length === 1 ? valid[0] : undefined))?.id;
}

/** The daemon's camera as a CameraSource: H.264 frames always, JPEG frames while wanted. */
export function createWebrtcSource(o: WebrtcSourceOptions): CameraSource {
  const log = o.log.child('webrtc');
  const producerName = o.producerName ?? 'reachymini';
  let run: Run | undefined;
  let jpeg = false;

  const endSession = (r: Run, tell: boolean): void => {
    if (!r.session) return;
    if (tell) r.client.send({ type: 'endSession', sessionId: r.session.id });
    r.session.consumer.close();
    r.session = undefined;
  };
  const relistSoon = (r: Run): void => {
    clearTimeout(r.relist);
    r.relist = setTimeout(() => !r.stopped && !r.session && r.client.send({ type: 'list' }), RELIST_MS);
  };
  const startSession = (r: Run, producerId: string | undefined): void => {
    if (r.session || r.requesting || !producerId) return;
    r.requesting = true;
    r.client.send({ type: 'startSession', peerId: producerId });
  };
  const openSession = (r: Run, sessionId: string): void => {
    const consumer = createConsumerSession({
      log,
      signal: (inner) => r.client.send({ type: 'peer', sessionId, ...inner }),
      onAccessUnit: (au) => r.frames.accessUnit(au),
      onParameterSets: (nals) => r.frames.setParameterSets(nals),
      onFailed: (reason) => {
        log.debug('camera session failed', { reason });
        endSession(r, true);
        relistSoon(r);
      },
    });
    r.session = { id: sessionId, consumer };
  };

  const onMessage = (r: Run, m: SignallingMessage): void => {
    if (r.stopped) return;
    const sessionId = typeof m.sessionId === 'string' ? m.sessionId : '';
    switch (m.type) {
      case 'list':
        return startSession(r, pickProducer(m.producers, producerName));
      case 'peerStatusChanged': {
        const producing = Array.isArray(m.roles) && m.roles.includes('producer');
        const named = (m.meta as { name?: unknown } | null)?.name === producerName;
        if (producing && named && typeof m.peerId === 'string') startSession(r, m.peerId);
        return;
      }
      case 'sessionStarted':
        r.requesting = false;
        if (!r.session && sessionId) openSession(r, sessionId);
        else if (sessionId) r.client.send({ type: 'endSession', sessionId });
        return;
      case 'peer':
        if (r.session?.id === sessionId) {
          void r.session.consumer.handlePeer(m).catch((error: unknown) => {
            log.debug('could not apply a peer message', { error: String(error) });
            endSession(r, true);
            relistSoon(r);
          });
        }
        return;
      case 'endSession':
        if (r.session?.id === sessionId) {
          endSession(r, false);
          relistSoon(r);
        }
        return;
      case 'error':
        log.debug('signalling error', { details: m.details });
        r.requesting = false;
        if (!r.session) relistSoon(r);
        return;
    }
  };

  return {
    name: `webrtc ${o.url}`,
    async start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void) {
      if (run) throw new Error('webrtc source already started');
      // Messages can only arrive after the welcome, by which time the run exists.
      const ref: { run?: Run } = {};
      const client = await connectSignalling(o.url, {
        timeoutMs: o.connectTimeoutMs ?? 3000,
        onMessage: (m) => ref.run && onMessage(ref.run, m),
        onClose: (reason) => ref.run && !ref.run.stopped && onError(new Error(reason)),
      });
      const frames = createH264FrameMaker({
        log,
        emit: onFrame,
        requestKeyframe: () => ref.run?.session?.consumer.requestKeyframe(),
        ...(o.jpegQuality ? { jpegQuality: o.jpegQuality } : {}),
        ...(o.ffmpegBinary ? { ffmpegBinary: o.ffmpegBinary } : {}),
      });
      ref.run = { client, frames, stopped: false, requesting: false };
      run = ref.run;
      frames.wantJpeg(jpeg);
      client.send({ type: 'setPeerStatus', roles: ['listener'], meta: { name: 'robot-cockpit' } });
      client.send({ type: 'list' });
    },
    async stop() {
      const r = run;
      run = undefined;
      if (!r) return;
      r.stopped = true;
      clearTimeout(r.relist);
      endSession(r, true);
      r.frames.stop();
      r.client.close();
    },
    wantJpeg(on) {
      jpeg = on;
      run?.frames.wantJpeg(on);
    },
  };
}
