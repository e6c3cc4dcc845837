import { describe, expect, it } from 'vitest';
import { createPlatformProvider, type PlatformAsk, type PlatformAskEvent } from './platform.ts';
import { PLATFORM_TEXT_LIMIT } from './platform-text.ts';
import { collect } from './testing/collect.ts';
import type { ToolSpec } from './types.ts';

/** A platform double that records the text it was asked and streams scripted frames. */
function platform(frames: PlatformAskEvent[] | Error): PlatformAsk & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    async *ask({ text }) {
      texts.push(text);
      if (frames instanceof Error) throw frames;
      for (const frame of frames) yield frame;
    },
  };
}

const LOOK: ToolSpec = {
  name: 'look',
  description: 'Turn the head. Yaw is positive to the left.',
  inputSchema: { type: 'object', properties: { yaw: { type: 'number' }, pitch: { type: 'number' } } },
};

describe('platform provider', () => {
  it('streams the platform text and turns CALL lines into tool calls', async () => {
    const p = platform([
      { type: 'text', text: 'Sure, turning ' },
      { type: 'text', text: 'now.\nCALL look {"ya' },
      { type: 'text', text: 'w": 30}\n' },
    ]);
    const out = await collect(createPlatformProvider(p), {
      messages: [{ role: 'user', content: 'look left' }],
      tools: [LOOK],
    });
    expect(out.text).toBe('Sure, turning now.\n');
    expect(out.calls).toEqual([{ id: 'platform_call_1', name: 'look', input: { yaw: 30 } }]);
    expect(out.last).toEqual({ type: 'done', stopReason: 'tool_use' });
    expect(p.texts[0]).toContain('- look(yaw, pitch): Turn the head.');
    expect(p.texts[0]).toContain('User: look left');
  });

  it('keeps the text within the device ask limit, newest messages first', async () => {
    const p = platform([{ type: 'text', text: 'ok' }]);
    const messages = Array.from({ length: 40 }, (_, i) => ({
      role: 'user' as const,
      content: `message ${i} ${'x'.repeat(300)}`,
    }));
    await collect(createPlatformProvider(p), { messages });
    expect(p.texts[0]!.length).toBeLessThanOrEqual(PLATFORM_TEXT_LIMIT);
    expect(p.texts[0]).toContain('message 39');
    expect(p.texts[0]).not.toContain('message 0 ');
  });

  it('reports an in-stream error and a refusal as error events', async () => {
    const failed = await collect(createPlatformProvider(platform([{ type: 'error', error: 'model key missing' }])));
    expect(failed.last).toEqual({ type: 'error', error: 'the platform answered: model key missing' });
    const refused = await collect(createPlatformProvider(platform(new Error('not enrolled'))));
    expect(refused.last).toEqual({ type: 'error', error: 'the platform ask failed: not enrolled' });
  });
});
