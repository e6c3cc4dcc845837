/**
 * The text protocol of the platform provider (platform.ts): how a turn with tools is written as
 * one prompt of at most 4000 characters (the device ask's `text` limit, reference-notes.md §2.6),
 * and how `CALL <tool> <json>` lines in the streamed answer become tool calls.
 */
import type { ChatMessage, ChatRequest, ProviderEvent, ToolSpec } from './types.ts';

export const PLATFORM_TEXT_LIMIT = 4000;
/** The tools and instructions come first; the conversation gets what is left. */
const HEADER_BUDGET = 2200;
const MESSAGE_LIMIT = 600;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function toolLine(tool: ToolSpec): string {
  const props = Object.keys((tool.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
  const firstSentence = tool.description.split(/(?<=\.)\s/)[0] ?? tool.description;
  return `- ${tool.name}(${props.join(', ')}): ${firstSentence}`;
}

function header(request: ChatRequest): string {
  const parts = [request.system.trim()];
  if (request.tools.length > 0) {
    parts.push(
      'You control this robot only through these tools. To use one, write a line of its own: ' +
        'CALL <tool> <JSON input>, e.g. CALL look {"yaw": 30}. Write nothing after your CALL lines.',
      request.tools.map(toolLine).join('\n'),
    );
  }
  return clip(parts.filter(Boolean).join('\n\n'), HEADER_BUDGET);
}

function lineOf(message: ChatMessage): string {
  if (message.role === 'user') return `User: ${clip(message.content, MESSAGE_LIMIT)}`;
  if (message.role === 'assistant') {
    const calls = message.toolCalls.map((c) => `CALL ${c.name} ${JSON.stringify(c.input ?? {})}`);
    return clip(['Assistant:', message.text, ...calls].filter(Boolean).join('\n'), MESSAGE_LIMIT);
  }
  return message.results.map((r) => `Result of ${r.name}: ${clip(r.content, MESSAGE_LIMIT / 2)}`).join('\n');
}

/** The whole turn as one text: header, then as many of the newest messages as fit. */
export function platformPrompt(request: ChatRequest): string {
  const head = header(request);
  const lines: string[] = [];
  let room = PLATFORM_TEXT_LIMIT - head.length - 2;
  for (const message of [...request.messages].reverse()) {
    const line = lineOf(message);
    if (line.length + 1 > room) break;
    lines.unshift(line);
    room -= line.length + 1;
  }
  return `${head}\n\n${lines.join('\n')}`.slice(0, PLATFORM_TEXT_LIMIT);
}

const CALL_LINE = /^\s*CALL\s+([A-Za-z_][\w-]*)\s*(.*)$/;

/**
 * Splits the streamed answer into lines: CALL lines become tool calls, other text passes
 * through. A partial line is held back until its end, since it may turn out to be a CALL.
 */
export function createCallLineParser(): { push(text: string): ProviderEvent[]; end(): ProviderEvent[] } {
  let buffer = '';
  let count = 0;
  const line = (text: string, newline: string): ProviderEvent[] => {
    const match = CALL_LINE.exec(text);
    if (!match) return text + newline === '' ? [] : [{ type: 'text', text: text + newline }];
    count += 1;
    const id = `platform_call_${count}`;
    const name = match[1] as string;
    const raw = (match[2] ?? '').trim();
    if (raw === '') return [{ type: 'tool_call', call: { id, name, input: {} } }];
    try {
      return [{ type: 'tool_call', call: { id, name, input: JSON.parse(raw) as unknown } }];
    } catch {
      return [
        {
          type: 'tool_call',
          call: { id, name, input: {} },
          invalid: `the arguments are not valid JSON: ${clip(raw, 120)}`,
        },
      ];
    }
  };
  return {
    push(text) {
      buffer += text;
      const out: ProviderEvent[] = [];
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        out.push(...line(buffer.slice(0, nl), '\n'));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
      return out;
    },
    end() {
      const rest = buffer;
      buffer = '';
      return line(rest, '');
    },
  };
}
