/**
 * The speaker check (daemon-checks.ts): silent while the STOP holds or after one that came during
 * the volume read, silent once its time ran out, and skipped for a daemon without media.
 */
import { describe, expect, it, vi } from 'vitest';
import type { DaemonStatus } from '../daemon/wire.ts';
import { eventually } from '../testing/eventually.ts';
import { daemonChecks } from './daemon-checks.ts';
import { runCheck } from './run-checks.ts';

/**
 * A daemon for the media and speaker checks: running 1.13.0 with its media unless `noMedia`, the
 * volume read answered by `volume`, and every sound it is asked to play noted in `played`.
 */
function soundDaemon(played: string[], volume: () => Promise<number> = async () => 50, noMedia = false) {
  return {
    status: async () => ({ state: 'running', version: '1.13.0', no_media: noMedia }) as DaemonStatus,
    motorMode: async () => 'enabled',
    doa: async () => null,
    volume,
    playSound: async (file: string) => void played.push(file),
  };
}

describe('the speaker check and the STOP', () => {
  it('plays no sound while the STOP is latched', async () => {
    const played: string[] = [];
    const daemon = soundDaemon(played);
    let latched = true;
    const speaker = daemonChecks(daemon, { engaged: () => latched, engagements: () => 1 }).find(
      (c) => c.id === 'speaker',
    )!;
    expect(await runCheck(speaker, Date.now)).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: the STOP is latched, and the robot stays silent until the resume.',
    });
    latched = false;
    expect(await runCheck(speaker, Date.now)).toMatchObject({ outcome: 'ok' });
    expect(played).toEqual(['impatient1.wav']);
  });
});

describe('the speaker check and a STOP during its volume read', () => {
  it('plays no sound when the STOP came while the daemon answered the volume', async () => {
    const played: string[] = [];
    let answerVolume!: (level: number) => void;
    let latched = false;
    const daemon = soundDaemon(played, () => new Promise<number>((resolve) => (answerVolume = resolve)));
    const speaker = daemonChecks(daemon, { engaged: () => latched, engagements: () => (latched ? 1 : 0) }).find(
      (c) => c.id === 'speaker',
    )!;
    const result = runCheck(speaker, Date.now);
    await eventually(() => answerVolume !== undefined, { what: 'the volume read' });
    latched = true;
    answerVolume(50);
    expect(await result).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: the STOP is latched, and the robot stays silent until the resume.',
    });
    expect(played).toEqual([]);
  });

  it('plays no sound when a STOP came and was resumed while the daemon answered the volume', async () => {
    const played: string[] = [];
    let answerVolume!: (level: number) => void;
    let stops = 0;
    const daemon = soundDaemon(played, () => new Promise<number>((resolve) => (answerVolume = resolve)));
    const speaker = daemonChecks(daemon, { engaged: () => false, engagements: () => stops }).find(
      (c) => c.id === 'speaker',
    )!;
    const result = runCheck(speaker, Date.now);
    await eventually(() => answerVolume !== undefined, { what: 'the volume read' });
    stops += 1;
    answerVolume(50);
    expect(await result).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: a STOP came during the check, so no test sound was played.',
    });
    expect(played).toEqual([]);
  });

  it('plays no sound when the volume is answered after the check ran out of time', async () => {
    vi.useFakeTimers();
    try {
      const played: string[] = [];
      let answerVolume!: (level: number) => void;
      const daemon = soundDaemon(played, () => new Promise<number>((resolve) => (answerVolume = resolve)));
      const speaker = daemonChecks(daemon).find((c) => c.id === 'speaker')!;
      const result = runCheck(speaker, Date.now);
      await vi.advanceTimersByTimeAsync(5000);
      expect(await result).toMatchObject({ outcome: 'fail', detail: 'No answer within 5 s.' });
      answerVolume(50);
      await vi.advanceTimersByTimeAsync(1000);
      expect(played).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a daemon without media', () => {
  it('skips the speaker and the microphone array, saying why, without asking the daemon to play', async () => {
    const played: string[] = [];
    const daemon = soundDaemon(played, undefined, true);
    const checks = daemonChecks(daemon).filter((c) => c.id === 'speaker' || c.id === 'doa');
    const results = await Promise.all(checks.map((c) => runCheck(c, Date.now)));
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ['doa', 'skipped'],
      ['speaker', 'skipped'],
    ]);
    expect(results[1]?.detail).toBe(
      'The daemon runs without media (no sound card or audio board), so there is no speaker to test.',
    );
    expect(played).toEqual([]);
  });
});
