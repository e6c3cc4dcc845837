/**
 * The tools a wheeled-server chat turn gets: read the base's state, drive one frame, stop. Model-made
 * driving is autonomous driving, so the drive tool acts as the thinker: the operator's drive
 * gate and precedence apply to it exactly as to a persona's frames (drive-controller.ts).
 * No fleet tools, ever (docs/contract.md, POST /api/chat: one-hop depth cap).
 */
import { noInput, objectSchema, type AgentTool } from '../../agent/tools/types.ts';
import type { WheeledState } from '../../contract/wheeled.ts';
import type { DriveController } from '../drive/drive-controller.ts';
import { parseDriveInput } from '../drive/frame-input.ts';

const AGENT_OWNER = 'agent';

export function createBaseTools(deps: { controller: DriveController; state: () => WheeledState }): AgentTool[] {
  return [
    {
      name: 'base_state',
      description:
        'Where the rover is (x, y in metres, heading in degrees), how fast it moves, and whether the drive gate is open.',
      inputSchema: objectSchema({}),
      async run(input) {
        noInput(input);
        const { pose, velocity, gate, driving } = deps.state();
        return { pose, velocity, gate: { open: gate.open }, driving };
      },
    },
    {
      name: 'drive',
      description:
        'Drive for a moment: linear -1..1 (forward +), angular -1..1 (turn left +), duration in seconds (at most 1). ' +
        'Needs the operator to have opened the drive gate.',
      inputSchema: objectSchema(
        { linear: { type: 'number' }, angular: { type: 'number' }, duration: { type: 'number' } },
        ['linear', 'angular', 'duration'],
      ),
      async run(input) {
        const frame = parseDriveInput(input);
        if ('stop' in frame) {
          deps.controller.stop({ driver: 'thinker', owner: AGENT_OWNER });
          return { ok: true, stopped: true };
        }
        const outcome = deps.controller.frame(frame, { driver: 'thinker', owner: AGENT_OWNER });
        return { ok: true, applied: outcome.applied, clamped: outcome.clamped };
      },
    },
    {
      name: 'stop',
      description: 'Stop the rover at once.',
      inputSchema: objectSchema({}),
      async run(input) {
        noInput(input);
        deps.controller.stop({ driver: 'thinker', owner: AGENT_OWNER });
        return { ok: true };
      },
    },
  ];
}
