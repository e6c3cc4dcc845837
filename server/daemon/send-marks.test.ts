import { describe, expect, it } from 'vitest';
import { markDaemonAnswer, markDaemonSend, withSendMarks, type SendMarks } from './send-marks.ts';

describe('send marks', () => {
  it('marks the first daemon send of each concurrent request in its own context', async () => {
    const a: SendMarks = { receivedAt: 0n };
    const b: SendMarks = { receivedAt: 0n };
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await Promise.all([
      withSendMarks(a, async () => {
        await tick();
        markDaemonSend();
        const first = a.daemonSentAt;
        await tick();
        markDaemonSend();
        expect(a.daemonSentAt).toBe(first);
      }),
      withSendMarks(b, async () => {
        await tick();
        await tick();
      }),
    ]);
    expect(a.daemonSentAt).toBeTypeOf('bigint');
    expect(b.daemonSentAt).toBeUndefined();
  });

  it("keeps the daemon's first answer of a request, after its first send", async () => {
    const marks: SendMarks = { receivedAt: process.hrtime.bigint() };
    await withSendMarks(marks, async () => {
      markDaemonSend();
      markDaemonAnswer();
      const first = marks.daemonAnsweredAt;
      markDaemonAnswer();
      expect(marks.daemonAnsweredAt).toBe(first);
    });
    expect(marks.daemonAnsweredAt! >= marks.daemonSentAt!).toBe(true);
    markDaemonAnswer();
    expect(marks.daemonAnsweredAt).toBeTypeOf('bigint');
  });

  it('leaves no context behind once no request is in flight', async () => {
    const marks: SendMarks = { receivedAt: 0n };
    let later: Promise<void> = Promise.resolve();
    await withSendMarks(marks, async () => {
      // Work the request leaves running after it answers.
      later = new Promise<void>((r) => setTimeout(r, 10)).then(() => markDaemonSend());
    });
    await later;
    expect(marks.daemonSentAt).toBeUndefined();
    markDaemonSend();
    expect(marks.daemonSentAt).toBeUndefined();
  });
});
