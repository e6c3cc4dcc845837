/**
 * The moving tools: look, antennas, express, sleep and wake. Each validates its input with the
 * same edge checks as the control routes (server/motion/control-input.ts) and goes through
 * Control, so the motion arbiter (one move owner), the safe-range clamps, the event receipts and
 * the latched stop (409 STOP_LATCHED) apply to the agent exactly as to the dashboard.
 */
import { isAppError } from '../../errors.ts';
import { parseAntennas, parseExpress, parseLook } from '../../motion/control-input.ts';
import type { Control } from '../../motion/control.ts';
import type { MoveLibraryCache } from '../../motion/move-library.ts';
import { noInput, objectSchema, type AgentTool } from './types.ts';

export type MotionControl = Pick<Control, 'look' | 'antennas' | 'express' | 'sleep' | 'wake'>;

const deg = (description: string) => ({ type: 'number', description });

export function lookTool(control: Pick<MotionControl, 'look'>): AgentTool {
  return {
    name: 'look',
    description:
      'Move the head to an absolute pose, angles in degrees. yaw > 0 turns the head to its left, yaw < 0 to its ' +
      'right (-60..60); pitch > 0 looks down, pitch < 0 looks up (-30..25); roll tilts (-25..25). body_yaw turns ' +
      'the whole body (-150..150). antennas is [right, left] in degrees. duration is seconds (default 1). ' +
      'Values outside the safe ranges are clamped; the result says what was applied.',
    inputSchema: objectSchema({
      yaw: deg('degrees, positive = left'),
      pitch: deg('degrees, positive = down'),
      roll: deg('degrees'),
      body_yaw: deg('degrees, positive = left'),
      antennas: {
        type: 'array',
        items: { type: 'number' },
        minItems: 2,
        maxItems: 2,
        description: '[right, left] degrees',
      },
      duration: { type: 'number', description: 'seconds, 0.2..10' },
    }),
    async run(input, ctx) {
      const result = await control.look(parseLook(input), ctx.credential);
      return { ok: true, applied: result.applied, clamped: result.clamped };
    },
  };
}

export function antennasTool(control: Pick<MotionControl, 'antennas'>): AgentTool {
  return {
    name: 'antennas',
    description: 'Set both antenna angles in degrees (-170..170); 0 is upright. A quick way to show a feeling.',
    inputSchema: objectSchema({ right: deg('degrees'), left: deg('degrees') }, ['right', 'left']),
    async run(input, ctx) {
      const result = await control.antennas(parseAntennas(input), ctx.credential);
      return { ok: true, applied: result.applied, clamped: result.clamped };
    },
  };
}

/** Names offered to the model when it asks for a move the library lacks. */
async function availableNames(moves: Pick<MoveLibraryCache, 'get'>): Promise<string> {
  try {
    const library = await moves.get();
    return library.moves
      .filter((m) => !m.lifecycle)
      .map((m) => m.name)
      .join(', ');
  } catch {
    return 'unknown (the move library could not be read)';
  }
}

export function expressTool(control: Pick<MotionControl, 'express'>, moves: Pick<MoveLibraryCache, 'get'>): AgentTool {
  return {
    name: 'express',
    description:
      'Play a recorded emotion or dance by name, e.g. curious1, cheerful1, attentive1, yes1, no1, surprised1, ' +
      'welcoming1, dance1. An unknown name answers with the list of available moves.',
    inputSchema: objectSchema({ name: { type: 'string', description: 'a move name' } }, ['name']),
    async run(input, ctx) {
      const { name } = parseExpress(input);
      try {
        const result = await control.express(name, ctx.credential);
        return { ok: true, name: result.name, dataset: result.dataset };
      } catch (error) {
        if (isAppError(error) && error.code === 'MOVE_UNKNOWN')
          throw new Error(`${error.message}; available: ${await availableNames(moves)}`);
        throw error;
      }
    },
  };
}

export function sleepTool(control: Pick<MotionControl, 'sleep'>): AgentTool {
  return {
    name: 'sleep',
    description: 'Go to the sleep pose; the motors relax at the end. Use wake to come back.',
    inputSchema: objectSchema({}),
    async run(input, ctx) {
      noInput(input);
      await control.sleep(ctx.credential);
      return { ok: true, asleep: true };
    },
  };
}

export function wakeTool(control: Pick<MotionControl, 'wake'>): AgentTool {
  return {
    name: 'wake',
    description: 'Wake up: motors on, then the wake-up move.',
    inputSchema: objectSchema({}),
    async run(input, ctx) {
      noInput(input);
      await control.wake(ctx.credential);
      return { ok: true, awake: true };
    },
  };
}
