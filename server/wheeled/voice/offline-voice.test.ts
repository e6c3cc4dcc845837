import { describe, expect, it } from 'vitest';
import type { VoiceServerFrame } from '../../contract/wheeled.ts';
import { silentLog } from '../../log.ts';
import { eventually } from '../../testing/eventually.ts';
import { pcm16Wav } from '../../speech/wav.ts';
import type { WheeledTurnResult } from '../chat/wheeled-agent.ts';
import { createOfflineVoice } from './offline-voice.ts';
import { OFFLINE_RATE, spokenPieces } from './speech-out.ts';

/** An offline session whose agent answers only when the test releases it; speech is a short silence. */
function heldSession() {
  const frames: VoiceServerFrame[] = [];
  const prompts: string[] = [];
  const held: Array<(result: WheeledTurnResult) => void> = [];
  const session = createOfflineVoice({
    io: {
      send: (frame) => frames.push(frame),
      sendInTurn: (frame) => (frames.push(frame), Promise.resolve()),
      end: () => undefined,
    },
    agent: {
      configured: () => true,
      run: ({ prompt }) => {
        prompts.push(prompt);
        return new Promise((resolve) => held.push(resolve));
      },
    },
    engine: {
      name: 'silence',
      synthesize: () => Promise.resolve({ wav: pcm16Wav(Buffer.alloc(OFFLINE_RATE / 5), OFFLINE_RATE), seconds: 0.1 }),
    },
    transcriber: undefined,
    credential: 'token',
    log: silentLog,
  });
  return { session, frames, prompts, held };
}

describe('offline voice, typed lines', () => {
  it('refuses a typed line while an answer is going, and takes the next one after its done frame', async () => {
    const { session, frames, prompts, held } = heldSession();
    session.text('first');
    await eventually(() => prompts.length === 1);
    expect(prompts).toEqual(['first']);
    session.text('second');
    session.text('third');
    expect(frames.filter((f) => f.type === 'error')).toEqual([
      { type: 'error', error: 'an answer is still going; wait for its done frame' },
      { type: 'error', error: 'an answer is still going; wait for its done frame' },
    ]);
    held[0]!({ ok: true, text: 'one', seconds: 1, messages: [] });
    await eventually(() => frames.some((f) => f.type === 'done'));
    session.text('fourth');
    await eventually(() => prompts.length === 2);
    expect(prompts).toEqual(['first', 'fourth']);
    session.close();
  });
});

describe('offline voice, long answers', () => {
  it('cuts an answer into pieces after a sentence, else at a space, else where it must', () => {
    expect(spokenPieces('One. Two three. Four', 12)).toEqual(['One.', 'Two three.', 'Four']);
    expect(spokenPieces('alpha beta gamma', 12)).toEqual(['alpha beta', 'gamma']);
    expect(spokenPieces('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(spokenPieces('  short  ')).toEqual(['short']);
  });
});
