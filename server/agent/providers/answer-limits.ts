/**
 * How much of one model answer the robot takes. The model server is whatever the owner pointed
 * the robot at, and a model can run away: these bound what a decoder gathers and what a turn
 * takes (turn-loop.ts also bounds the answer's text), so a stream that never stops costs a
 * bounded amount of memory and ends the turn with a sentence, before the watchdog's minute is
 * up (answer-limits.test.ts).
 */

/** Tool calls in one answer. A robot turn asks for one or a few; each runs, one after another. */
export const TOOL_CALL_LIMIT = 16;

/** One tool call's JSON arguments, in characters. The robot's tools take a handful of numbers. */
export const TOOL_ARGS_LIMIT = 64 * 1024;

/** A tool's name as the model spells it (the robot's are a word or two), and a call's id. */
export const TOOL_NAME_LIMIT = 128;

/** Content blocks one Anthropic answer may open (text, thinking and tool_use blocks). */
export const BLOCK_LIMIT = 64;

export const tooManyCalls = `the model asked for more than ${TOOL_CALL_LIMIT} tool calls in one answer`;

/** The platform's agent calls the robot's tools inside its one streamed turn (platform.ts). */
export const tooManyTurnCalls = `the platform's agent asked for more than ${TOOL_CALL_LIMIT} robot tool calls in one turn`;

export const argsTooLong = `the arguments ran past ${TOOL_ARGS_LIMIT / 1024} KiB`;

/** Appends a streamed piece, keeping at most `limit` characters; `over` says whether any were lost. */
export function appendBounded(text: string, piece: string, limit: number): { text: string; over: boolean } {
  const joined = text + piece;
  return joined.length > limit ? { text: joined.slice(0, limit), over: true } : { text: joined, over: false };
}
