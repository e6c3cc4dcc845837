/**
 * The simulated daemon's camera, reachable only the way the real one is: webrtcsink signalling
 * on its own port (8443 on the robot) and an H.264 WebRTC track. There is no HTTP frame route,
 * as on the real daemon (docs/daemon.md, "Media"). The camera is available while /sim/camera is on
 * and the media devices are not released to another program (docs/daemon.md, "Media"). Its microphone
 * comes the same way, as an Opus track in the camera session (docs/daemon.md, "Media").
 */
import type { Log } from '../log.ts';
import type { CameraCounters, SimContext } from './context.ts';
import { createCameraProducer } from './camera-producer.ts';
import { createCameraSensor, type ViewSource } from './camera-render.ts';
import { startSignallingServer } from './camera-signalling-server.ts';
import { createSignallingHub } from './camera-signalling.ts';
import { createSimMicrophone } from './microphone.ts';
import { xyzrpyFromPose } from './pose.ts';

export interface SimCamera {
  /** `ws://127.0.0.1:<port>`: the signalling server. */
  readonly url: string;
  readonly port: number;
  counters(): CameraCounters;
  close(): Promise<void>;
}

/** What the head camera looks at now: the present head pose and the /sim/face person. */
function viewOf(ctx: SimContext): ViewSource {
  return () => {
    const head = xyzrpyFromPose(ctx.world.present.head);
    return { yaw: head.yaw, pitch: head.pitch, roll: head.roll, face: ctx.world.tracking.face, clockMs: ctx.wallMs() };
  };
}

export async function startSimCamera(ctx: SimContext, options: { port: number; log: Log }): Promise<SimCamera> {
  const log = options.log.child('camera');
  const sensor = createCameraSensor({ log, view: viewOf(ctx) });
  const hub = createSignallingHub();
  const microphone = createSimMicrophone();
  const producer = createCameraProducer(hub, sensor, microphone, log);
  const server = await startSignallingServer(hub, { port: options.port, log }).catch((error: unknown) => {
    producer.close();
    microphone.close();
    throw error;
  });
  const counters = (): CameraCounters => {
    const s = producer.counts();
    // The producer is in process; every socket is a consumer (or a listener) of the camera.
    return {
      cameraSessions: s.open,
      cameraSessionsTotal: s.total,
      cameraSessionsPeak: s.peak,
      cameraAudioSessions: s.audio,
      cameraSignallingClients: server.connections(),
    };
  };
  // A released microphone hears nothing (the daemon's pipeline is stopped, docs/daemon.md, "Media").
  ctx.camera.hear = (clip) => !ctx.media.released && microphone.hear(clip);
  ctx.camera.microphone = () => microphone.status();
  ctx.camera.setSilent = (on) => microphone.setSilent(on);
  ctx.camera.sync = () => producer.setAvailable(ctx.camera.on && !ctx.media.released);
  ctx.camera.counters = counters;
  ctx.camera.signallingUrl = server.url;
  ctx.camera.sync();
  log.info('camera signalling listening', { port: server.port });

  return {
    url: server.url,
    port: server.port,
    counters,
    async close() {
      producer.close();
      microphone.close();
      sensor.close();
      await server.close();
    },
  };
}
