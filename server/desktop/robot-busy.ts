/**
 * Whether the robot is in use, for work that must never interrupt anyone: installing a firmware
 * bundle restarts the console. In use means a move runs, an agent turn of any
 * persona runs, the speaker plays, or a person did something in the last minute (any event
 * receipt not left by the cockpit itself).
 */
import type { EventFrame } from '../contract/ws.ts';

export const OPERATOR_IDLE_MS = 60_000;

export interface BusyInputs {
  moveRunning: boolean;
  runningTurns: number;
  speaking: boolean;
  events: readonly EventFrame[];
  now: number;
}

/** Why the robot is not idle, or null when it is. */
export function busyReason(input: BusyInputs): string | null {
  if (input.moveRunning) return 'a move is running';
  if (input.runningTurns > 0) return 'an agent turn is running';
  if (input.speaking) return 'the robot is speaking';
  const person = input.events.some(
    (e) => e.credential !== 'system' && input.now - Date.parse(e.time) < OPERATOR_IDLE_MS,
  );
  return person ? 'an operator was active in the last minute' : null;
}
