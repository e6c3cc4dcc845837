/**
 * The agent log row (docs/contract.md, "Events"): what the dashboard, the
 * /ws frames, GET /api/log and the file all carry. Sizes are capped so one runaway answer or a
 * huge tool result cannot bloat the log, the socket or the file.
 */

import type { AgentLogRow, ToolRecord } from '../contract/agent.ts';

export type { AgentLogRow, AgentRole, ToolRecord } from '../contract/agent.ts';

export type NewRow = Pick<AgentLogRow, 'role' | 'persona' | 'text'> & { tool?: ToolRecord; error?: boolean };
export type RowPatch = { text?: string; tool?: ToolRecord; error?: boolean };

export const ROW_TEXT_LIMIT = 20_000;
const JSON_LIMIT = 4000;
const ROLES: readonly string[] = ['user', 'assistant', 'tool', 'reasoning'];

export function capText(text: string): string {
  return text.length > ROW_TEXT_LIMIT ? `${text.slice(0, ROW_TEXT_LIMIT - 1)}…` : text;
}

/** A value that serialises past the limit is kept as its truncated JSON text. */
function capValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value) ?? 'null';
  return text.length > JSON_LIMIT ? `${text.slice(0, JSON_LIMIT - 1)}…` : (JSON.parse(text) as unknown);
}

export function capJson(tool: ToolRecord): ToolRecord {
  const out: ToolRecord = { name: tool.name, input: capValue(tool.input) ?? {} };
  if (tool.result !== undefined) out.result = capValue(tool.result);
  if (tool.error !== undefined) out.error = capText(tool.error);
  return out;
}

export function validateRow(u: unknown): AgentLogRow | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const r = u as Record<string, unknown>;
  const ok =
    Number.isInteger(r.id) &&
    (r.id as number) > 0 &&
    typeof r.time === 'string' &&
    typeof r.role === 'string' &&
    ROLES.includes(r.role) &&
    typeof r.persona === 'string' &&
    typeof r.text === 'string' &&
    (r.tool === undefined ||
      (typeof r.tool === 'object' && r.tool !== null && typeof (r.tool as ToolRecord).name === 'string'));
  return ok ? (r as unknown as AgentLogRow) : undefined;
}
