import { describe, expect, it } from 'vitest';
import { markDaemonSend, withSendMarks, type SendMarks } from './send-marks.ts';

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
