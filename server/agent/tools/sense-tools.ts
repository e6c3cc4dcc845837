/**
 * The tools that speak, hear or look rather than move: say, volume, snapshot, get_state and
 * tracking. Speech and volume go through Control (the latched stop silences and refuses speech);
 * the camera frame and the tracker are injected, since they belong to other features.
 */
import { badRequest } from '../../errors.ts';
import type { RobotState } from '../../contract/state.ts';
import { parseSay, parseVolume } from '../../motion/control-input.ts';
import type { Control } from '../../motion/control.ts';
import { noInput, objectSchema, TOOL_IMAGES, type AgentTool } from './types.ts';

export function sayTool(control: Pick<Control, 'say'>): AgentTool {
  return {
    name: 'say',
    description: 'Speak a short sentence aloud through the robot speaker (1-1000 characters). Keep it brief.',
    inputSchema: objectSchema({ text: { type: 'string', description: 'what to say' } }, ['text']),
    async run(input, ctx) {
      const result = await control.say(parseSay(input).text, ctx.credential);
      return { ok: true, engine: result.engine, seconds: result.seconds };
    },
  };
}

export function volumeTool(control: Pick<Control, 'volume'>): AgentTool {
  return {
    name: 'volume',
    description: 'Set the speaker volume, an integer 0-100.',
    inputSchema: objectSchema({ level: { type: 'integer', minimum: 0, maximum: 100 } }, ['level']),
    async run(input, ctx) {
      const result = control.volume(parseVolume(input).level, ctx.credential);
      return { ok: true, level: result.level };
    },
  };
}

/** The JPEG start-of-image marker: the camera's frames are JPEG (docs/contract.md, "Routes"). */
const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8;

export function snapshotTool(snapshot: () => Promise<Buffer | undefined>): AgentTool {
  return {
    name: 'snapshot',
    description: 'Take a picture with the head camera and look at it. Use it to answer what the robot sees.',
    inputSchema: objectSchema({}),
    async run(input) {
      noInput(input);
      const frame = await snapshot();
      if (!frame || frame.length === 0) throw new Error('the camera has no frame yet');
      if (!isJpeg(frame)) throw new Error('the camera frame is not a JPEG image');
      return {
        ok: true,
        format: 'jpeg',
        bytes: frame.length,
        [TOOL_IMAGES]: [{ mediaType: 'image/jpeg', base64: frame.toString('base64') }],
      };
    },
  };
}

/** What the model needs of the state: pose, motors and services, rounded to read well. */
function summarise(state: RobotState): Record<string, unknown> {
  const r = (v: number) => Math.round(v * 10) / 10;
  const h = state.head;
  return {
    head: { yaw: r(h.yaw), pitch: r(h.pitch), roll: r(h.roll), x: r(h.x), y: r(h.y), z: r(h.z) },
    body_yaw: r(state.bodyYaw),
    antennas: { right: r(state.antennas.right), left: r(state.antennas.left) },
    motor_mode: state.motorMode,
    services: Object.fromEntries(Object.entries(state.services).map(([k, v]) => [k, v.state])),
    ...(state.doa ? { doa: state.doa } : {}),
  };
}

export function getStateTool(state: () => RobotState | undefined): AgentTool {
  return {
    name: 'get_state',
    description: 'Read the robot state: head pose (degrees, mm), body yaw, antennas, motor mode and services.',
    inputSchema: objectSchema({}),
    async run(input) {
      noInput(input);
      const current = state();
      if (!current) throw new Error('no robot state yet: the daemon has not answered');
      return { ok: true, ...summarise(current) };
    },
  };
}

/** Face tracking as the agent may switch it (server/perception owns the tracker). */
export interface TrackingSwitch {
  setEnabled(enabled: boolean): Promise<unknown> | unknown;
}

export function trackingTool(tracking: TrackingSwitch | undefined): AgentTool {
  return {
    name: 'tracking',
    description: 'Turn face tracking on or off. While on, the head follows the nearest face by itself.',
    inputSchema: objectSchema({ enabled: { type: 'boolean' } }, ['enabled']),
    async run(input) {
      const enabled = (input as { enabled?: unknown } | null)?.enabled;
      if (typeof enabled !== 'boolean') throw badRequest('enabled must be true or false');
      if (!tracking) throw new Error('face tracking is not available on this robot');
      await tracking.setEnabled(enabled);
      return { ok: true, enabled };
    },
  };
}
