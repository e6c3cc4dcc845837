import { describe, expect, it } from 'vitest';
import { markDaemonAnswer, markDaemonSend, withSendMarks, type SendMarks } from './send-marks.ts';

describe('send marks', () => {
  it('marks the first daemon send of each concurrent request in its own context', async () => {
    const a: SendMarks = { receivedAt: 0n };
    const b: SendMarks = { receivedAt: 0n };
    // Both requests wait at the same gate, so their work interleaves once the test opens it.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const both = Promise.all([
      withSendMarks(a, async () => {
        await gate;
        markDaemonSend();
        const first = a.daemonSentAt;
        await Promise.resolve();
        markDaemonSend();
        expect(a.daemonSentAt).toBe(first);
      }),
      withSendMarks(b, async () => {
        await gate;
        await Promise.resolve();
      }),
    ]);
    open();
    await both;
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
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    await withSendMarks(marks, async () => {
      // Work the request leaves running after it answers, released by the test afterwards.
      later = gate.then(() => markDaemonSend());
    });
    finish();
    await later;
    expect(marks.daemonSentAt).toBeUndefined();
    markDaemonSend();
    expect(marks.daemonSentAt).toBeUndefined();
  });
});
