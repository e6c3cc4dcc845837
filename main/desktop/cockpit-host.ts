/**
 * The server side of the desktop link (cockpit-link.ts): answers the shell's calls on the
 * composed cockpit and pushes what the tray and the alerts read, once a second.
 */
import type { ComposedCockpit } from '../compose.ts';
import type { FromServer, LinkCall, ToServer } from './cockpit-link.ts';
import { readSnapshot, remoteAddress } from './cockpit-view.ts';
import { saveLastMinutes, TRAY_CREDENTIAL } from './tray-actions.ts';

export interface LinkPort {
  post(message: FromServer): void;
  onMessage(listener: (message: ToServer) => void): void;
}

export interface HostOptions {
  /** How often the snapshot is pushed. */
  pulseMs?: number;
  /** The shell asked the server to stop (a quit): stop it, then exit. */
  onShutdown(): void;
}

export interface CockpitHost {
  /** Pushes a snapshot now (also done once a second). */
  pulse(): void;
  stop(): void;
}

export function hostCockpit(composed: ComposedCockpit, port: LinkPort, options: HostOptions): CockpitHost {
  const { cockpit, platform, config } = composed;
  port.onMessage((message) => {
    if (message.kind === 'shutdown') return options.onShutdown();
    if (message.kind !== 'call') return;
    // A failed call is an answer too: the shell shows it, the server carries on.
    answer(composed, message.call).then(
      (value) => port.post({ kind: 'reply', id: message.id, ok: true, value: value ?? null }),
      (error: unknown) =>
        port.post({ kind: 'reply', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  const pulse = () =>
    port.post({
      kind: 'snapshot',
      snapshot: readSnapshot(cockpit, platform),
      remoteAddress: remoteAddress(cockpit, config.host) ?? null,
    });
  const timer = setInterval(pulse, options.pulseMs ?? 1000);
  return { pulse, stop: () => clearInterval(timer) };
}

async function answer(composed: ComposedCockpit, call: LinkCall): Promise<unknown> {
  const { control } = composed.cockpit.features;
  switch (call.method) {
    case 'wake':
      return control.wake(TRAY_CREDENTIAL);
    case 'sleep':
      return control.sleep(TRAY_CREDENTIAL);
    case 'stop':
      return control.stop(TRAY_CREDENTIAL);
    case 'resume':
      return control.resume(TRAY_CREDENTIAL);
    case 'demo':
      return control.demo(call.on, TRAY_CREDENTIAL);
    case 'platform-connect':
      return composed.platform.connect();
    case 'platform-disconnect':
      return composed.platform.disconnect();
    case 'create-window-session': {
      const issued = await composed.cockpit.createLocalWindowSession(call.ttlSeconds);
      // Only what the window's cookie needs; the session's key stays in this process.
      return { id: issued.id, expiresAt: issued.expiresAt };
    }
    case 'destroy-session':
      return composed.cockpit.access.sessions.destroy(call.id);
    case 'save-recording':
      return saveLastMinutes(composed.cockpit.recorder, call.minutes);
  }
}
