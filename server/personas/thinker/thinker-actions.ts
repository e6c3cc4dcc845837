/**
 * The thinker's repertoire (docs/contract.md, "How the desktop server behaves", thinker persona): exactly one small
 * expressive action per cycle, rotating emotion → antenna wiggle → gentle look → small body
 * turn. Without a model the rules below choose the values; with one, the model gets only the
 * tool of this cycle's kind, whose input is clamped to the same gentle ranges.
 */
import type { Control } from '../../motion/control.ts';
import type { MoveLibraryCache } from '../../motion/move-library.ts';
import { antennasTool, expressTool, lookTool } from '../../agent/tools/motion-tools.ts';
import { objectSchema, type AgentTool } from '../../agent/tools/types.ts';

export type ActionKind = 'emotion' | 'antennas' | 'look' | 'body';
export const ROTATION: readonly ActionKind[] = ['emotion', 'antennas', 'look', 'body'];

export const ACTION_LABELS: Readonly<Record<ActionKind, string>> = Object.freeze({
  emotion: 'a small emotion',
  antennas: 'an antenna wiggle',
  look: 'a gentle look around',
  body: 'a small body turn',
});

/** Calm, short moves that suit an idle robot (no dances, nothing loud or angry). */
export const GENTLE_EMOTIONS: readonly string[] = [
  'curious1',
  'attentive1',
  'attentive2',
  'thoughtful1',
  'thoughtful2',
  'inquiring1',
  'cheerful1',
  'serenity1',
  'welcoming1',
  'understanding1',
  'calming1',
  'amazed1',
];

/** Gentle bounds, well inside the safe ranges of server/motion/safe-ranges.ts. */
export const GENTLE = Object.freeze({ yaw: 25, pitch: 10, roll: 8, body: 20, antenna: 45, antennaMin: 15 });

export type ThinkerControl = Pick<Control, 'express' | 'antennas' | 'look'>;

export interface PlannedAction {
  tool: string;
  input: Record<string, unknown>;
  text: string;
}

const clamp = (v: unknown, limit: number) =>
  Math.max(-limit, Math.min(limit, typeof v === 'number' && Number.isFinite(v) ? v : 0));
const round = (v: number) => Math.round(v);
const sign = (random: () => number) => (random() < 0.5 ? -1 : 1);
const between = (random: () => number, min: number, max: number) => min + (max - min) * random();

/** The rules' choice for a kind; `names` is the library, to play only moves that exist. */
export function planByRules(kind: ActionKind, random: () => number, names: readonly string[]): PlannedAction {
  switch (kind) {
    case 'emotion': {
      const choices = GENTLE_EMOTIONS.filter((n) => names.includes(n));
      const name = choices[Math.floor(random() * choices.length)] ?? 'attentive1';
      return { tool: 'express', input: { name }, text: `I played ${name}.` };
    }
    case 'antennas': {
      const a = round(sign(random) * between(random, GENTLE.antennaMin, GENTLE.antenna));
      return { tool: 'antennas', input: { right: a, left: -a }, text: `I wiggled my antennas (${a}° / ${-a}°).` };
    }
    case 'look': {
      const yaw = round(sign(random) * between(random, 8, GENTLE.yaw));
      const pitch = round(between(random, -GENTLE.pitch, GENTLE.pitch / 2));
      return {
        tool: 'look',
        input: { yaw, pitch, duration: 1.5 },
        text: `I looked ${yaw > 0 ? 'left' : 'right'} a little.`,
      };
    }
    case 'body': {
      const body_yaw = round(sign(random) * between(random, 8, GENTLE.body));
      return {
        tool: 'turn_body',
        input: { body_yaw, duration: 2 },
        text: `I turned my body ${body_yaw > 0 ? 'left' : 'right'} a little.`,
      };
    }
  }
}

/** A look restricted to small head angles (no body, no antennas). */
function gentleLook(control: ThinkerControl): AgentTool {
  const base = lookTool(control);
  return {
    ...base,
    description: `Look around gently: yaw within ±${GENTLE.yaw}° (positive = left), pitch within ±${GENTLE.pitch}° (positive = down), roll within ±${GENTLE.roll}°.`,
    inputSchema: objectSchema({ yaw: { type: 'number' }, pitch: { type: 'number' }, roll: { type: 'number' } }),
    run: (input, ctx) => {
      const i = (input ?? {}) as Record<string, unknown>;
      return base.run(
        {
          yaw: clamp(i.yaw, GENTLE.yaw),
          pitch: clamp(i.pitch, GENTLE.pitch),
          roll: clamp(i.roll, GENTLE.roll),
          duration: 1.5,
        },
        ctx,
      );
    },
  };
}

/** A small turn of the whole body (the head keeps its pose). */
function turnBody(control: ThinkerControl): AgentTool {
  const base = lookTool(control);
  return {
    name: 'turn_body',
    description: `Turn the body a little: body_yaw within ±${GENTLE.body}° (positive = left).`,
    inputSchema: objectSchema({ body_yaw: { type: 'number' } }, ['body_yaw']),
    run: (input, ctx) =>
      base.run({ body_yaw: clamp((input as { body_yaw?: unknown } | null)?.body_yaw, GENTLE.body), duration: 2 }, ctx),
  };
}

/** Antennas kept within the gentle range. */
function gentleAntennas(control: ThinkerControl): AgentTool {
  const base = antennasTool(control);
  return {
    ...base,
    description: `Wiggle the antennas: right and left in degrees, each within ±${GENTLE.antenna}°.`,
    run: (input, ctx) => {
      const i = (input ?? {}) as Record<string, unknown>;
      return base.run({ right: clamp(i.right, GENTLE.antenna), left: clamp(i.left, GENTLE.antenna) }, ctx);
    },
  };
}

/** Only the gentle moves: the model may not pick a dance or an angry emotion when idle. */
function gentleExpress(control: ThinkerControl, moves: Pick<MoveLibraryCache, 'get'>): AgentTool {
  const base = expressTool(control, moves);
  return {
    ...base,
    description: `Play one small emotion, one of: ${GENTLE_EMOTIONS.join(', ')}.`,
    inputSchema: objectSchema({ name: { type: 'string', enum: [...GENTLE_EMOTIONS] } }, ['name']),
    run: (input, ctx) => {
      const name = (input as { name?: unknown } | null)?.name;
      if (typeof name !== 'string' || !GENTLE_EMOTIONS.includes(name))
        throw new Error(`choose one of ${GENTLE_EMOTIONS.join(', ')}`);
      return base.run({ name }, ctx);
    },
  };
}

/** Every tool the thinker may use, by name (the rules' plans name them too). */
export function thinkerTools(
  control: ThinkerControl,
  moves: Pick<MoveLibraryCache, 'get'>,
): Record<ActionKind, AgentTool> {
  return {
    emotion: gentleExpress(control, moves),
    antennas: gentleAntennas(control),
    look: gentleLook(control),
    body: turnBody(control),
  };
}
