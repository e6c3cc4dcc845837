import { describe, expect, it } from 'vitest';
import { applyFrame, isStreaming, startTurn, type ChatEntry } from './chat-stream.ts';

describe('chat stream', () => {
  it('fills the assistant entry from token, reasoning and tool frames and closes it on done', () => {
    let chat: ChatEntry[] = startTurn([], 'drive forward');
    expect(isStreaming(chat)).toBe(true);
    chat = applyFrame(chat, { type: 'reasoning', data: 'The operator ' });
    chat = applyFrame(chat, { type: 'reasoning', data: 'wants motion.' });
    chat = applyFrame(chat, { type: 'token', data: 'Let me ', complete: false });
    chat = applyFrame(chat, { type: 'token', data: 'try.', complete: false });
    chat = applyFrame(chat, { type: 'token', data: '', complete: true });
    chat = applyFrame(chat, { type: 'tool', id: 't1', name: 'drive', phase: 'start', input: { linear: 0.5 } });
    expect(chat.at(-1)?.tools).toEqual([
      { id: 't1', name: 'drive', input: { linear: 0.5 }, status: 'running', detail: '{"linear":0.5}' },
    ]);
    chat = applyFrame(chat, {
      type: 'tool',
      id: 't1',
      name: 'drive',
      phase: 'end',
      input: { linear: 0.5 },
      error: 'the drive gate is closed',
    });
    chat = applyFrame(chat, { type: 'done', text: 'Let me try.', seconds: 1.2 });
    const last = chat.at(-1);
    expect(last).toMatchObject({
      role: 'assistant',
      text: 'Let me try.',
      reasoning: 'The operator wants motion.',
      pending: false,
    });
    expect(last?.tools[0]).toMatchObject({ status: 'failed', detail: 'the drive gate is closed' });
    expect(chat.map((e) => e.role)).toEqual(['user', 'assistant']);
    expect(isStreaming(chat)).toBe(false);
  });

  it('shows an error frame as a failed answer, or on its own when nothing streams', () => {
    let chat = applyFrame(startTurn([], 'hi'), { type: 'error', error: 'no model configured' });
    expect(chat.at(-1)).toMatchObject({ pending: false, error: 'no model configured' });
    chat = applyFrame(chat, { type: 'error', error: 'a reply is still streaming' });
    expect(chat).toHaveLength(3);
    expect(applyFrame(chat, { type: 'token', data: 'late', complete: false })).toEqual(chat);
  });
});
