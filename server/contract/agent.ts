/**
 * The agent log row (docs/contract.md, "Events"): what the dashboard, the
 * /ws `agent_log` frames, GET /api/log and the log file all carry; and the dashboard's last Ask.
 */

export type AgentRole = 'user' | 'assistant' | 'tool' | 'reasoning';

export interface ToolRecord {
  name: string;
  input: unknown;
  /** The tool's result (absent while it runs, or when it failed). */
  result?: unknown;
  error?: string;
}

export interface AgentLogRow {
  /** Increasing integer, never reused across restarts for a finished row. */
  id: number;
  /** ISO time the row was created. */
  time: string;
  role: AgentRole;
  /** dashboard, fleet, thinker, voice, messenger... */
  persona: string;
  text: string;
  tool?: ToolRecord;
  /** An assistant row that reports a failure (provider error, watchdog, stop). */
  error?: true;
  /** Still streaming; later frames with the same id replace it. Absent once final. */
  pending?: true;
}

/** GET /api/ask/last: the dashboard's Ask turn, running or last finished. */
export interface AskStatus {
  running: boolean;
  prompt: string | null;
  answer: string | null;
  /** ISO times. */
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  /** The agent-log row of the prompt. */
  rowId: number | null;
}
