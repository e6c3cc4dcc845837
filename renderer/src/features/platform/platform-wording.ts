/**
 * What the platform card says about firmware updates and the owner session, in words an operator
 * can act on: what will happen, and what to change on the robot when the console cannot do it.
 */
import type { FirmwareState, FirmwareStatus, PlatformStatus } from '../../../../server/contract/index.ts';

const STATE_WORDS: Record<FirmwareState, string> = {
  disabled: 'updates off',
  idle: 'idle',
  checking: 'checking',
  up_to_date: 'up to date',
  downloading: 'downloading',
  staged: 'staged',
  applying: 'installing',
  applied: 'installed',
  refused: 'refused',
  unoffered: 'not offered by this platform',
  failed: 'failed',
};

/** "staged · running 1.2.3 · 1.2.4 staged": the state, the running version and what is new. */
export function firmwareLine(f: FirmwareStatus): string {
  const parts: string[] = [STATE_WORDS[f.state]];
  if (f.currentVersion) parts.push(`running ${f.currentVersion}`);
  if (f.available && f.available !== f.currentVersion && f.available !== f.staged)
    parts.push(`${f.available} available`);
  if (f.staged) parts.push(`${f.staged} staged`);
  return parts.join(' · ');
}

/** The client's message as a sentence ("Staged; waiting for the robot to be idle."), or null. */
export function firmwareMessage(f: FirmwareStatus): string | null {
  const text = f.message?.trim();
  if (!text) return null;
  const sentence = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

export const NO_INSTALLER =
  'This console cannot install updates: set ROBOT_FIRMWARE_HOOK on the robot, or run the packaged app.';

/** What allowing installs means, for a console that has an installer. */
export const INSTALL_HELP =
  'Updates are always downloaded and staged. A staged update is installed only while this is on and the robot is idle (no move, agent turn or speech for a minute); the new version runs once the console restarts.';

/**
 * The install switch: what it does in this console, and whether it can be used. Without an
 * installer it is locked off, except that consent given earlier can always be taken back.
 */
export function installSwitch(f: FirmwareStatus): { disabled: boolean; help: string } {
  if (f.installer !== null) return { disabled: false, help: INSTALL_HELP };
  return f.installAllowed
    ? { disabled: false, help: `${NO_INSTALLER} Updates stay staged until it can.` }
    : { disabled: true, help: NO_INSTALLER };
}

/** Where the owner session stands, and what it means for the robot's agent. */
export function ownerSessionText(source: PlatformStatus['ownerSession']): string {
  if (source === 'stored')
    return 'A session token is stored: the robot’s agent can list and message your other devices.';
  if (source === 'env')
    return 'The session token comes from ROBOT_PLATFORM_SESSION_TOKEN on the robot: change or remove it there.';
  return 'No session token: the robot’s agent cannot reach your other devices.';
}

/** The short state beside the heading of the owner-session panel. */
export function ownerSessionLabel(source: PlatformStatus['ownerSession']): string {
  return source === 'stored' ? 'Stored' : source === 'env' ? 'From the robot' : 'None';
}
