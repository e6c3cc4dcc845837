/**
 * The AudioSource behind `daemon`: the robot's own microphone, taken from the camera's one
 * WebRTC session with the daemon (the frame hub's listenMicrophone; server/camera/audio/). No
 * second session, no daemon route: when the camera is not the daemon's WebRTC there is no
 * microphone, and the source ends at once with the reason, so the listener's backoff applies
 * and the daemon's media are never touched (docs/daemon.md, "Duties of the cockpit").
 */
import type { MicrophoneListen, MicrophoneListener } from '../../camera/index.ts';
import type { AudioHandlers, AudioSource } from './audio-source.ts';

/** What the voice listener needs of the camera: the frame hub. */
export interface MicrophoneProvider {
  readonly microphoneName: string | null;
  listenMicrophone(listener: MicrophoneListener): MicrophoneListen;
}

export function createDaemonAudioSource(provider: MicrophoneProvider | undefined): AudioSource {
  let close: (() => void) | undefined;
  let stopped = false;
  return {
    name: provider?.microphoneName ?? 'daemon microphone',
    start(handlers: AudioHandlers) {
      stopped = false;
      const listening: MicrophoneListen = provider
        ? provider.listenMicrophone({
            pcm: (chunk) => !stopped && handlers.pcm(chunk),
            end: (reason) => !stopped && handlers.end(`the daemon microphone ended: ${reason}`),
          })
        : { ok: false, error: 'no camera is wired to the voice listener' };
      if (listening.ok) {
        close = () => listening.subscription.close();
        return;
      }
      // Reported after start returns, as a device that cannot be opened is.
      const error = `no daemon microphone: ${listening.error}`;
      queueMicrotask(() => !stopped && handlers.end(error));
    },
    stop() {
      stopped = true;
      close?.();
      close = undefined;
    },
  };
}
