/**
 * The voice listener's `source` setting, as the dashboard edits it:
 *
 * | Setting            | Audio                                                              |
 * | ------------------ | ------------------------------------------------------------------ |
 * | `daemon`           | the robot's own microphone, through the camera's WebRTC session    |
 * | `device`           | the platform's default microphone (ALSA `default`, AVFoundation 0) |
 * | `device:<name>`    | a named capture device (Windows needs this: DirectShow has no default) |
 * | `alsa:<name>`, `pulse:<name>` | Linux, with that sound system                           |
 * | `file:<path>`      | a file or named pipe, paced like a microphone                      |
 *
 * `daemon` is accepted whatever the camera is; without the daemon's WebRTC camera the source
 * fails when it starts, says why, and is retried like any other (README-personas.md, "The
 * daemon's microphone").
 */
import { badRequest } from '../../errors.ts';
import { hasControlChars } from '../../http/settings-input.ts';
import type { CaptureSpec } from './capture-args.ts';

export type SourceSetting = { kind: 'daemon' } | { kind: 'device'; spec: CaptureSpec } | { kind: 'file'; path: string };

/** Where the camera is the daemon's WebRTC, `daemon` is the default instead (personas.ts). */
export const DEFAULT_SOURCE = 'device';
export const DAEMON_SOURCE = 'daemon';
export const SOURCE_EXPECTS = 'daemon, device, device:<name>, alsa:<name>, pulse:<name> or file:<path>';
const MAX_SETTING = 300;

function defaultDevice(platform: NodeJS.Platform): string {
  if (platform === 'linux') return 'default';
  if (platform === 'darwin') return '0';
  throw badRequest(`source: name the microphone on ${platform}, as device:<name>`);
}

function named(prefix: string, rest: string): string {
  if (rest.trim() === '') throw badRequest(`source: ${prefix}: needs a name after the colon`);
  return rest;
}

/** Parses a setting for this platform; 400 naming `source` when it is not one of the forms. */
export function parseSourceSetting(raw: string, platform: NodeJS.Platform): SourceSetting {
  // Control characters never belong in a device name or a path, and would reach ffmpeg's argv.
  if (raw.length > MAX_SETTING || hasControlChars(raw)) throw badRequest(`source must be ${SOURCE_EXPECTS}`);
  if (raw === DAEMON_SOURCE) return { kind: 'daemon' };
  if (raw === 'device') return { kind: 'device', spec: { device: defaultDevice(platform), platform } };
  const colon = raw.indexOf(':');
  const prefix = colon < 0 ? raw : raw.slice(0, colon);
  const rest = colon < 0 ? '' : raw.slice(colon + 1);
  if (prefix === 'device') return { kind: 'device', spec: { device: named(prefix, rest), platform } };
  if (prefix === 'alsa' || prefix === 'pulse') {
    if (platform !== 'linux') throw badRequest(`source: ${prefix} is a Linux sound system; use device:<name>`);
    return { kind: 'device', spec: { device: named(prefix, rest), platform, backend: prefix } };
  }
  if (prefix === 'file') return { kind: 'file', path: named(prefix, rest) };
  throw badRequest(`source must be ${SOURCE_EXPECTS}`);
}

/** For the status line. */
export function describeSource(setting: SourceSetting): string {
  if (setting.kind === 'daemon') return 'daemon microphone';
  if (setting.kind === 'file') return `file ${setting.path}`;
  const backend = setting.spec.backend ?? (setting.spec.platform === 'linux' ? 'alsa' : '');
  return `microphone ${setting.spec.device}${backend ? ` (${backend})` : ''}`;
}
