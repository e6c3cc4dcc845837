/**
 * The one place the desktop shell reads the running cockpit for its tray and alerts: the same
 * health object GET /api/health answers, and the stop and demo services of the state object.
 */
import type { Cockpit } from '../../server/index.ts';
import { cockpitLanUrl } from '../compose.ts';
import type { CockpitSnapshot } from './tray-model.ts';

/** The platform client's status members the tray reads (halted is a reason object, or null). */
export interface PlatformStatusSource {
  status(): {
    enrolled: boolean;
    connected: boolean;
    online: boolean;
    halted: unknown;
    tokenNotice?: { kind: 'rotated' | 'removed' | 'refused' } | null;
    firmware?: { state: string; staged: string | null; currentVersion: string | null; installAllowed: boolean };
  };
}

export function readSnapshot(cockpit: Pick<Cockpit, 'robot'>, platform?: PlatformStatusSource): CockpitSnapshot {
  const { robot } = cockpit;
  const snapshot: CockpitSnapshot = {
    health: robot.health(),
    stop: robot.services.get('stop'),
    demo: robot.services.get('demo'),
  };
  if (platform) {
    const s = platform.status();
    snapshot.platform = {
      enrolled: s.enrolled,
      connected: s.connected,
      online: s.online,
      halted: s.halted !== null && s.halted !== undefined,
      ...(s.tokenNotice ? { token: s.tokenNotice.kind } : {}),
      ...(s.firmware
        ? {
            firmware: {
              state: s.firmware.state,
              staged: s.firmware.staged,
              currentVersion: s.firmware.currentVersion,
              installAllowed: s.firmware.installAllowed,
            },
          }
        : {}),
    };
  }
  return snapshot;
}

/**
 * The address to give a phone or another computer: the HTTPS one under the host's .local name
 * when there is one (passkeys need a secure context), else the LAN address over plain HTTP.
 */
export function remoteAddress(
  cockpit: Pick<Cockpit, 'remoteUrl' | 'port'>,
  host: string,
  lanUrl: (host: string, port: number) => string | null = cockpitLanUrl,
): string | undefined {
  return cockpit.remoteUrl() ?? lanUrl(host, cockpit.port) ?? undefined;
}
