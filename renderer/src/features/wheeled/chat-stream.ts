/**
 * The chat panel's conversation built from /ws/chat frames (server/wheeled/README-wheeled.md,
 * "Sockets"): a user entry per message sent, then one assistant entry that fills in as token,
 * reasoning and tool frames arrive and is closed by done or error. Pure, so it is tested
 * without a socket.
 */
import type { ChatServerFrame } from '../../../../server/contract/wheeled.ts';

export interface ToolEntry {
  id: string;
  name: string;
  input: unknown;
  status: 'running' | 'done' | 'failed';
  detail: string;
}

export interface ChatEntry {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  reasoning: string;
  tools: ToolEntry[];
  pending: boolean;
  error: string | null;
}

let nextId = 1;

const entry = (role: ChatEntry['role'], text: string, pending: boolean): ChatEntry => ({
  id: nextId++,
  role,
  text,
  reasoning: '',
  tools: [],
  pending,
  error: null,
});

export function startTurn(entries: readonly ChatEntry[], text: string): ChatEntry[] {
  return [...entries, entry('user', text, false), entry('assistant', '', true)];
}

export function isStreaming(entries: readonly ChatEntry[]): boolean {
  return entries.at(-1)?.pending === true;
}

const brief = (value: unknown): string => {
  const text = JSON.stringify(value) ?? '';
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/** Applies one frame to the pending assistant entry; frames for no pending entry change nothing. */
export function applyFrame(entries: readonly ChatEntry[], frame: ChatServerFrame): ChatEntry[] {
  const last = entries.at(-1);
  if (frame.type === 'error' && (!last || !last.pending))
    return [...entries, { ...entry('assistant', '', false), error: frame.error }];
  if (!last || !last.pending) return [...entries];
  const next: ChatEntry = { ...last, tools: [...last.tools] };
  switch (frame.type) {
    case 'token':
      next.text += frame.data;
      break;
    case 'reasoning':
      next.reasoning += frame.data;
      break;
    case 'tool': {
      const at = next.tools.findIndex((t) => t.id === frame.id);
      const tool: ToolEntry =
        frame.phase === 'start'
          ? { id: frame.id, name: frame.name, input: frame.input, status: 'running', detail: brief(frame.input) }
          : {
              id: frame.id,
              name: frame.name,
              input: frame.input,
              status: frame.error ? 'failed' : 'done',
              detail: frame.error ?? brief(frame.result),
            };
      if (at >= 0) next.tools[at] = tool;
      else next.tools.push(tool);
      break;
    }
    case 'done':
      next.pending = false;
      if (next.text.trim() === '') next.text = frame.text;
      break;
    case 'error':
      next.pending = false;
      next.error = frame.error;
      break;
    default:
      return [...entries];
  }
  return [...entries.slice(0, -1), next];
}
