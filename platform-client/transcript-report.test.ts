/**
 * What the voice persona understood reaches the platform's transcript route while the robot is
 * linked, labelled `voice` with its length; nothing leaves while the link is off, and a
 * transcript that cannot be stored is logged, never thrown.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const posted = () => h.attempts.filter((a) => a.method === 'POST' && a.path === '/api/devices/transcript');

describe('voice transcripts', () => {
  it('stores each heard utterance while linked, and nothing while the link is off', async () => {
    h = await startHarness();
    await h.client.start();
    h.client.reportTranscript({ text: 'what time is it', durationS: 2 });
    await vi.waitFor(() => expect(h.emu.ctx.transcripts).toHaveLength(1));
    expect(h.emu.ctx.transcripts[0]).toMatchObject({
      deviceId: h.device.deviceId,
      text: 'what time is it',
      label: 'voice',
      durationS: 2,
    });
    const listed = await h.owned('GET', `/api/devices/transcript?id=${h.device.deviceId}`);
    expect(listed.body.transcripts).toMatchObject([{ text: 'what time is it' }]);
    // The platform itself reads ?id= as one transcript's id.
    const one = await h.owned('GET', `/api/devices/transcript?id=${h.emu.ctx.transcripts[0]!.id}`);
    expect(one.body.transcript).toMatchObject({ text: 'what time is it', label: 'voice' });

    await h.client.disconnect();
    h.client.reportTranscript({ text: 'said while the link was off', durationS: 1 });
    h.client.connect();
    h.client.reportTranscript({ text: 'back on', durationS: 1 });
    await vi.waitFor(() => expect(h.emu.ctx.transcripts).toHaveLength(2));
    expect(h.emu.ctx.transcripts.map((t) => t.text)).toEqual(['what time is it', 'back on']);
    expect(posted()).toHaveLength(2);
  });

  it('logs a transcript the platform cannot take, and does not throw', async () => {
    h = await startHarness();
    await h.client.start();
    expect(() => h.client.reportTranscript({ text: 'x'.repeat(16_385), durationS: 600 })).not.toThrow();
    await vi.waitFor(() =>
      expect(h.logs).toContainEqual({ level: 'warn', msg: 'transcript not stored on the platform' }),
    );
    expect(posted()).toHaveLength(0);
  });
});
