/**
 * What a tray menu item does. Robot actions call the same control functions the HTTP routes
 * call (server/motion/control.ts), as credential 'local-window', so the stop latch, the motion
 * arbiter and the event receipts treat the tray exactly like the dashboard in the window.
 */
import { messageOf, type CredentialKind, type Recorder } from '../../server/index.ts';
import { TRAY_SAVE_MINUTES, type TrayAction } from './tray-model.ts';

/** The tray acts as the desktop window does. */
export const TRAY_CREDENTIAL: CredentialKind = 'local-window';

/**
 * The control functions the tray calls: those of server/motion/control.ts in the server's
 * process, reached through the desktop link (cockpit-remote.ts), so each may answer later.
 */
export interface TrayControl {
  wake(credential: CredentialKind): Promise<unknown>;
  sleep(credential: CredentialKind): Promise<unknown>;
  stop(credential: CredentialKind): Promise<{ daemon: { ok: boolean; error?: string } }>;
  resume(credential: CredentialKind): unknown;
  demo(on: boolean, credential: CredentialKind): Promise<unknown>;
}

export interface TrayDeps {
  control: TrayControl;
  openDashboard(): void;
  openPairing(): void;
  /** The dashboard's platform card (enrolment, firmware channel). */
  openPlatformSettings(): void;
  /** Connects or disconnects the platform link; absent when no platform client is wired. */
  platform?: { connect(): void; disconnect(): Promise<void> };
  copyRemoteAddress(): void;
  setOpenAtLogin(on: boolean): void;
  quit(): void;
  /** The black box recorder, in the server's process: "Save last minutes" keeps a window of it. */
  recordings?: { saveLast(minutes: number): Promise<{ name: string }> };
  /** A refusal, a failure or a saved recording, for the operator to see (a notification); never thrown. */
  report(title: string, message: string): void;
}

const VERB: Partial<Record<TrayAction, string>> = {
  wake: 'Wake',
  sleep: 'Sleep',
  stop: 'STOP',
  resume: 'Resume',
  demo: 'Demo mode',
  'platform-link': 'Platform link',
  'save-recording': 'Saving the recording',
};

/**
 * Runs one item. `checked` is the checkbox's new state (Electron flips it before the click
 * handler runs). Resolves once the action has finished or failed; failures go to report().
 */
export async function runTrayAction(action: TrayAction, deps: TrayDeps, checked = false): Promise<void> {
  try {
    await perform(action, deps, checked);
  } catch (err) {
    deps.report(`${VERB[action] ?? 'Action'} failed`, messageOf(err));
  }
}

async function perform(action: TrayAction, deps: TrayDeps, checked: boolean): Promise<void> {
  const { control } = deps;
  switch (action) {
    case 'wake':
      return void (await control.wake(TRAY_CREDENTIAL));
    case 'sleep':
      return void (await control.sleep(TRAY_CREDENTIAL));
    case 'stop': {
      const result = await control.stop(TRAY_CREDENTIAL);
      // The latch holds either way; say so when the daemon part failed (the robot may still move).
      if (!result.daemon.ok) deps.report('STOP latched, daemon call failed', result.daemon.error ?? 'unknown error');
      return;
    }
    case 'resume':
      return void (await control.resume(TRAY_CREDENTIAL));
    case 'demo':
      return void (await control.demo(checked, TRAY_CREDENTIAL));
    case 'save-recording': {
      if (!deps.recordings) return;
      const kept = await deps.recordings.saveLast(TRAY_SAVE_MINUTES);
      return deps.report('Recording saved', `“${kept.name}”: replay or download it in the dashboard's Black box card.`);
    }
    case 'open':
      return deps.openDashboard();
    case 'pairing':
      return deps.openPairing();
    case 'copy-remote':
      return deps.copyRemoteAddress();
    case 'platform-link':
      if (!deps.platform) return;
      return checked ? deps.platform.connect() : deps.platform.disconnect();
    case 'platform-settings':
      return deps.openPlatformSettings();
    case 'login':
      return deps.setOpenAtLogin(checked);
    case 'quit':
      return deps.quit();
  }
}

/** Keeps the last `minutes` of the ring, fewer when the ring itself is shorter (the server side of the tray's save). */
export async function saveLastMinutes(recorder: Pick<Recorder, 'keepLast' | 'status'>, minutes: number): Promise<{ name: string }> {
  const kept = await recorder.keepLast(Math.min(minutes, recorder.status().maxMinutes));
  return { name: kept.name };
}
