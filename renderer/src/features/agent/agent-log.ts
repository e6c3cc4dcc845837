/**
 * Pure helpers of the agent log: rows merged by id as they stream (a later frame of the same id
 * replaces the row), the persona filter, how a tool call and its values read, and whether the
 * reader is at the bottom of the list (then new rows keep it there).
 */
import type { AgentLogRow, AgentRole, ToolRecord } from '../../lib/api/agent-api.ts';

/** The most rows kept on screen; older ones stay in the cockpit's log file. */
export const ROWS_KEPT = 300;

const KNOWN_PERSONAS = ['dashboard', 'fleet', 'thinker'];

/** Merges rows into the list by id (newer copies win), oldest first, the newest `limit` kept. */
export function mergeRows(
  rows: readonly AgentLogRow[],
  incoming: readonly AgentLogRow[],
  limit = ROWS_KEPT,
): AgentLogRow[] {
  if (incoming.length === 0) return [...rows];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of incoming) byId.set(row.id, row);
  const merged = [...byId.values()].sort((a, b) => a.id - b.id);
  return merged.length > limit ? merged.slice(merged.length - limit) : merged;
}

/** The personas present, the known ones first in their usual order. */
export function personasOf(rows: readonly AgentLogRow[]): string[] {
  const seen = new Set(rows.map((r) => r.persona));
  const known = KNOWN_PERSONAS.filter((p) => seen.has(p));
  const other = [...seen].filter((p) => !KNOWN_PERSONAS.includes(p)).sort();
  return [...known, ...other];
}

export function filterRows(rows: readonly AgentLogRow[], persona: string | null): readonly AgentLogRow[] {
  return persona === null ? rows : rows.filter((r) => r.persona === persona);
}

const ROLE_LABEL: Record<AgentRole, string> = {
  user: 'Prompt',
  assistant: 'Robot',
  tool: 'Tool',
  reasoning: 'Reasoning',
};

export function roleLabel(row: Pick<AgentLogRow, 'role' | 'error'>): string {
  return row.error ? 'Failed' : ROLE_LABEL[row.role];
}

/** One line for a folded tool call: its name and how it went. */
export function toolSummary(tool: ToolRecord, pending: boolean): string {
  if (tool.error !== undefined) return `${tool.name} · failed`;
  if (tool.result === undefined) return pending ? `${tool.name} · running…` : tool.name;
  return `${tool.name} · done`;
}

/** A tool input or result as readable text: strings as they are, the rest as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** The local time of a row, hours to seconds. */
export function rowTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** True when the list is scrolled to (within `slack` px of) its end. */
export function atBottom(scrollTop: number, clientHeight: number, scrollHeight: number, slack = 48): boolean {
  return scrollHeight - (scrollTop + clientHeight) <= slack;
}
