/**
 * When the thinker must hold still: it never overlaps a manual move and never
 * wakes a sleeping robot. Paused while asleep (motors off, or antennas parked as in the sleep
 * pose), while someone moves the robot by hand (gravity compensation) and while an operator
 * drives the head; a cycle is skipped when a move runs, an Ask turn runs, or an operator did
 * something in the last 10 s. Operator activity is read from the event receipts every control
 * leaves: anything not done by the cockpit itself (credential "system") is a person.
 */
import type { RobotState } from '../../contract/state.ts';
import type { EventFrame } from '../../contract/ws.ts';

export const OPERATOR_QUIET_MS = 10_000;
/** A joystick start without its release this recent still counts as driving. */
const DRIVING_WINDOW_MS = 60_000;
/** The sleep pose parks the antennas at ±174.8° (docs/daemon.md, "Conventions"); awake they sit near ±10°. */
const PARKED_ANTENNA_DEG = 150;

export interface GateInputs {
  state: RobotState | undefined;
  moveRunning: boolean;
  askRunning: boolean;
  events: readonly EventFrame[];
  now: number;
}

export type GateVerdict = { act: true } | { act: false; pause: boolean; reason: string };

function asleep(state: RobotState): string | undefined {
  if (state.motorMode === 'disabled') return 'the robot is asleep (motors off)';
  if (Math.abs(state.antennas.left) > PARKED_ANTENNA_DEG && Math.abs(state.antennas.right) > PARKED_ANTENNA_DEG)
    return 'the robot is asleep (sleep pose)';
  if (state.motorMode === 'gravity_compensation') return 'someone is moving the robot by hand';
  return undefined;
}

function driving(events: readonly EventFrame[], now: number): boolean {
  const last = [...events].reverse().find((e) => e.action === 'joystick');
  if (!last || last.values?.streaming !== true) return false;
  return now - Date.parse(last.time) < DRIVING_WINDOW_MS;
}

function recentOperator(events: readonly EventFrame[], now: number): boolean {
  return events.some((e) => e.credential !== 'system' && now - Date.parse(e.time) < OPERATOR_QUIET_MS);
}

export function checkGates(input: GateInputs): GateVerdict {
  if (!input.state) return { act: false, pause: false, reason: 'no robot state yet' };
  const sleeping = asleep(input.state);
  if (sleeping) return { act: false, pause: true, reason: sleeping };
  if (driving(input.events, input.now)) return { act: false, pause: true, reason: 'an operator is driving the head' };
  if (input.moveRunning) return { act: false, pause: false, reason: 'a move is running' };
  if (input.askRunning) return { act: false, pause: false, reason: 'an Ask turn is running' };
  if (recentOperator(input.events, input.now))
    return { act: false, pause: false, reason: 'the operator was active in the last 10 s' };
  return { act: true };
}
