/**
 * The microphone half of one simulated webrtcsink session: the offer always carries an Opus
 * m-line (sendonly), as the daemon's does; the encoder runs only when the consumer's answer
 * accepts it (recvonly or sendrecv), and only once the connection is up. A consumer that
 * answers `inactive` costs the simulated robot no encoder, as on the robot.
 */
import { MediaStreamTrack, RtpHeader, RtpPacket, type RTCPeerConnection } from 'werift';
import type { Log } from '../log.ts';
import { MIC_FRAME, type SimMicrophone } from './microphone.ts';
import { startOpusEncoder, type OpusEncoder } from './opus-encoder.ts';

export interface SessionAudio {
  /** The consumer's answer: does it take the microphone? */
  answered(sdp: string): void;
  /** The peer connection is up: start encoding if the answer took the microphone. */
  connected(): void;
  /** The answer took the microphone: an Opus encoder runs (or will, once connected) for it. */
  readonly accepted: boolean;
  close(): void;
}

/** The direction the answer gives its audio m-line; `inactive` when it has none. */
export function answeredAudioDirection(sdp: string): string {
  const section = sdp.split(/\r?\n(?=m=)/).find((part) => part.startsWith('m=audio'));
  const direction = section ? /^a=(sendrecv|sendonly|recvonly|inactive)\s*$/m.exec(section)?.[1] : undefined;
  return section && !section.startsWith('m=audio 0 ') ? (direction ?? 'sendrecv') : 'inactive';
}

export function addSessionAudio(
  pc: RTCPeerConnection,
  deps: { microphone: SimMicrophone; log: Log; onFailed(reason: string): void },
): SessionAudio {
  const track = new MediaStreamTrack({ kind: 'audio' });
  pc.addTransceiver(track, { direction: 'sendonly' });
  let accepted = false;
  let encoder: OpusEncoder | undefined;
  let unsubscribe: (() => void) | undefined;
  let sequenceNumber = Math.floor(Math.random() * 0xffff);
  let timestamp = Math.floor(Math.random() * 0xffffffff);

  const send = (opus: Buffer): void => {
    sequenceNumber = (sequenceNumber + 1) & 0xffff;
    // RFC 7587: 48 kHz timestamps; the encoder is set to 20 ms frames (MIC_FRAME samples).
    timestamp = (timestamp + MIC_FRAME) >>> 0;
    track.writeRtp(new RtpPacket(new RtpHeader({ sequenceNumber, timestamp, payloadType: 111, ssrc: 0 }), opus));
  };

  return {
    get accepted() {
      return accepted;
    },
    answered(sdp) {
      const direction = answeredAudioDirection(sdp);
      accepted = direction === 'recvonly' || direction === 'sendrecv';
    },
    connected() {
      if (!accepted || encoder) return;
      encoder = startOpusEncoder({ log: deps.log, onPacket: send, onExit: deps.onFailed });
      const running = encoder;
      unsubscribe = deps.microphone.subscribe((pcm) => running.encode(pcm));
    },
    close() {
      unsubscribe?.();
      encoder?.close();
      track.stop();
    },
  };
}
