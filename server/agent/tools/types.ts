/**
 * A tool the agent can call. The shape matches the platform client's ToolDefinition
 * (name, description, inputSchema, run(input, ctx)), so its use_device tool can be handed to the
 * runtime as it is. Tools throw to fail (an AppError's message reaches the model as the tool's
 * error); the runtime races each call against the turn's signal, which the latched stop aborts.
 */
import type { CredentialKind } from '../../contract/ws.ts';
import type { ImagePart } from '../providers/types.ts';

export interface ToolContext {
  /** Aborted by the latched stop, the watchdog, or the caller giving up. */
  signal: AbortSignal;
  /** True for a turn that arrived through the fleet. */
  fleet: boolean;
  persona: string;
  /** Who the robot acts for, for the event receipts of Control. */
  credential: CredentialKind;
}

/**
 * Images a tool hands to the model (the camera snapshot). A symbol key: JSON.stringify skips it,
 * so the picture never lands in the text result or the agent log.
 */
export const TOOL_IMAGES: unique symbol = Symbol('tool images');

export interface ToolOutput extends Record<string, unknown> {
  [TOOL_IMAGES]?: ImagePart[];
}

export interface AgentTool {
  name: string;
  description: string;
  /** JSON schema of the input object. */
  inputSchema: Record<string, unknown>;
  run(input: unknown, ctx: ToolContext): Promise<ToolOutput>;
}

/** A JSON-schema object with the given properties. */
export function objectSchema(
  properties: Record<string, Record<string, unknown>>,
  required: string[] = [],
): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Tools without input accept `{}` (and the null or missing input some models send). */
export function noInput(input: unknown): void {
  if (input === undefined || input === null) return;
  if (typeof input !== 'object' || Array.isArray(input)) throw new TypeError('this tool takes no input');
}
