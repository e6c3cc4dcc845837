/**
 * The camera setting (`ROBOT_CAMERA`, in config.ts's table):
 * - `daemon` (default): the robot daemon's WebRTC camera, signalling on ws://<daemon host>:8443;
 *   `daemon:ws://host:port` names another signalling address;
 * - `device:<path>`: a local capture device through ffmpeg (v4l2, AVFoundation, DirectShow);
 * - `synthetic`: a test card made in-process (no robot, ffmpeg or WebRTC), for demos and UI tests;
 * - `off`: no camera; snapshots answer 503 and health says `off`.
 */

export type CameraSetting =
  | { kind: 'daemon'; signallingUrl?: string }
  | { kind: 'device'; device: string }
  | { kind: 'synthetic' }
  | { kind: 'off' };

export const DEFAULT_CAMERA_SETTING: CameraSetting = Object.freeze({ kind: 'daemon' });

/** What config.ts should print when the value is bad. */
export const CAMERA_SETTING_EXPECTS = 'daemon, daemon:ws://host:port, device:<path or name>, synthetic, or off';

/** The parsed setting, or undefined when the text is not one. */
export function parseCameraSetting(raw: string): CameraSetting | undefined {
  const text = raw.trim();
  if (text === 'off') return { kind: 'off' };
  if (text === 'synthetic') return { kind: 'synthetic' };
  if (text === 'daemon') return { kind: 'daemon' };
  if (text.startsWith('daemon:')) {
    const url = text.slice('daemon:'.length);
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'ws:' || parsed.protocol === 'wss:'
        ? { kind: 'daemon', signallingUrl: url }
        : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith('device:') && text.length > 'device:'.length) return { kind: 'device', device: text.slice(7) };
  return undefined;
}

/** webrtcsink's signalling server sits on the daemon's host, port 8443 (docs/daemon.md, "Conventions"). */
export function defaultSignallingUrl(daemonUrl: string): string {
  // URL keeps the brackets of an IPv6 hostname, so it drops straight in.
  return `ws://${new URL(daemonUrl).hostname}:8443`;
}
