/**
 * The robot's own tool set, offered to every persona: look, express, antennas,
 * say, snapshot, get_state, tracking, volume, sleep and wake. Fleet tools (use_device) are not
 * here: the runtime adds them only to turns that did not come through the fleet.
 */
import type { RobotState } from '../../contract/state.ts';
import type { Control } from '../../motion/control.ts';
import type { MoveLibraryCache } from '../../motion/move-library.ts';
import { antennasTool, expressTool, lookTool, sleepTool, wakeTool } from './motion-tools.ts';
import { getStateTool, sayTool, snapshotTool, trackingTool, volumeTool, type TrackingSwitch } from './sense-tools.ts';
import type { AgentTool } from './types.ts';

export interface RobotToolDeps {
  control: Pick<Control, 'look' | 'antennas' | 'express' | 'sleep' | 'wake' | 'say' | 'volume'>;
  moves: Pick<MoveLibraryCache, 'get'>;
  state: () => RobotState | undefined;
  /** The latest camera frame as JPEG, undefined while the camera has none. */
  snapshot: () => Promise<Buffer | undefined>;
  /** Face tracking on/off; the tool answers "not available" without it. */
  tracking?: TrackingSwitch;
}

export function createRobotTools(deps: RobotToolDeps): AgentTool[] {
  return [
    lookTool(deps.control),
    expressTool(deps.control, deps.moves),
    antennasTool(deps.control),
    sayTool(deps.control),
    snapshotTool(deps.snapshot),
    getStateTool(deps.state),
    trackingTool(deps.tracking),
    volumeTool(deps.control),
    sleepTool(deps.control),
    wakeTool(deps.control),
  ];
}
