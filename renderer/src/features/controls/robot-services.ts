/**
 * The control-related services of the state frame: the latched stop, the showcase reel and demo
 * mode. Every open dashboard reads them from the same frame, so a stop pressed in one tab shows
 * in all of them (README-control.md, "The latched stop").
 */
import type { ReelStatus, ServiceState } from '../../../../server/contract/index.ts';

type Services = Record<string, ServiceState> | undefined | null;

export function stopLatched(services: Services): boolean {
  return services?.stop?.state === 'running';
}

/** "Stopped with the owner token at 06:01:02", from the stop service's detail. */
export function stopSummary(detail: string | undefined, clock: (iso: string) => string): string {
  const match = /stopped by (\S+) at (\S+?);/.exec(detail ?? '');
  if (!match) return 'Stopped.';
  const who = { token: 'the owner token', passkey: 'a passkey session', loopback: 'a program on the robot', system: 'the cockpit' }[match[1] as string] ?? match[1];
  return `Stopped with ${who} at ${clock(match[2] as string)}.`;
}

export function demoOn(services: Services): boolean {
  return services?.demo?.state === 'running';
}

export interface ReelView {
  running: boolean;
  /** "Step 3 of 11: nod" while running, else how the last run ended, or "Not run yet". */
  text: string;
}

/** The reel's entry carries its status fields beside `state` (server/motion/reel.ts); each is checked before use. */
type ReelService = ServiceState & Partial<ReelStatus>;

export function reelView(services: Services): ReelView {
  const reel = services?.reel as ReelService | undefined;
  if (!reel) return { running: false, text: 'Unavailable' };
  if (reel.state === 'running') {
    const index = (reel.stepIndex ?? 0) + 1;
    const of = reel.steps ? ` of ${reel.steps}` : '';
    return { running: true, text: `Step ${index}${of}${reel.step ? `: ${reel.step}` : ''}` };
  }
  if (!reel.outcome) return { running: false, text: 'Not run yet' };
  return { running: false, text: `Last run ${reel.outcome}${reel.reason ? ` (${reel.reason})` : ''}` };
}
