/**
 * The operator's firmware choices on a running client: the channel
 * the robot follows and the consent to install a staged bundle. Each is saved before it takes
 * effect, so what the dashboard shows is what a restart keeps.
 */
import type { Core } from './client-core.ts';
import { CHANNEL_PATTERN } from './limits.ts';
import type { Outcome } from './types.ts';

export type ChoiceFailure = { kind: 'bad_request' | 'storage'; message: string };

/** Stores the firmware choices; the caller updates the state only once they are durable. */
async function savePrefs(core: Core, next: { channel: string; installAllowed: boolean }): Promise<ChoiceFailure | null> {
  try {
    await core.prefs.save(next);
    return null;
  } catch (error) {
    core.deps.log.error('could not store the firmware preferences', { error: String(error) });
    return { kind: 'storage', message: 'the firmware preferences could not be stored' };
  }
}

/** Switches the firmware channel (kept across restarts) and reads its pointer soon. */
export async function setChannel(core: Core, next: string): Promise<Outcome<void, ChoiceFailure>> {
  if (!CHANNEL_PATTERN.test(next))
    return {
      ok: false,
      failure: {
        kind: 'bad_request',
        message: 'a channel is 1–32 of a-z, 0-9, _ and -, starting with a letter or digit',
      },
    };
  const failure = await savePrefs(core, { channel: next, installAllowed: core.current.installAllowed });
  if (failure) return { ok: false, failure };
  core.current.channel = next;
  core.status.updateFirmware({ channel: next, available: null, message: null });
  core.loops.checkFirmwareSoon();
  return { ok: true, value: undefined };
}

/** Gives or withdraws the operator's consent to install a staged bundle once the robot is idle. */
export async function setInstallAllowed(core: Core, allowed: boolean): Promise<Outcome<void, ChoiceFailure>> {
  const failure = await savePrefs(core, { channel: core.current.channel, installAllowed: allowed });
  if (failure) return { ok: false, failure };
  core.current.installAllowed = allowed;
  core.status.updateFirmware({ installAllowed: allowed });
  if (allowed) core.loops.retryFirmwareInstall();
  return { ok: true, value: undefined };
}
