/** The ring's bounds, the STOP window and read-back with the official indexed reader. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBack, fakeState, startRecorderRig, type RecorderRig } from './testing/recorder-rig.ts';
import { CHANNEL_KINDS, CHANNELS, schemaName } from './schemas.ts';
import { silentLog } from '../log.ts';
import { createRecorder } from './recorder.ts';

let rig: RecorderRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** A new recorder on the rig's folder and clock: the cockpit started again. */
const reopen = (r: RecorderRig, maxMinutes: number) =>
  createRecorder({
    dir: r.dir,
    maxMinutes,
    maxBytes: 1 << 30,
    cameraFps: 5,
    clock: r.clock,
    log: silentLog,
    tickMs: null,
  });

/** Records state at 10 Hz for `seconds` of fake time, ticking once a second. */
async function recordFor(r: RecorderRig, seconds: number, extra?: (i: number) => void): Promise<void> {
  for (let i = 0; i < seconds * 10; i += 1) {
    r.recorder.record('state', fakeState(i % 60));
    extra?.(i);
    r.clock.advance(100);
    if (i % 10 === 9) await r.recorder.tick();
  }
  await r.recorder.idle();
}

describe('the ring', () => {
  it('keeps only the last minutes: older files are deleted as time passes', async () => {
    rig = await startRecorderRig({ maxMinutes: 1, segmentMs: 10_000 });
    await recordFor(rig, 200);
    const status = rig.recorder.status();
    // One minute plus the open file and the one just closed.
    expect(status.ringSeconds).toBeLessThanOrEqual(60 + 20);
    expect(status.ringSeconds).toBeGreaterThanOrEqual(60);
    expect(rig.ringFiles().length).toBeLessThanOrEqual(8);
  });

  it('counts recording time: started an hour after a stop, it still holds the minutes before', async () => {
    rig = await startRecorderRig({ maxMinutes: 1, segmentMs: 10_000 });
    const r = rig;
    await recordFor(r, 30);
    await r.recorder.stop();
    const before = r.ringFiles();
    // The robot was powered off after something went wrong, and started an hour later.
    r.clock.advance(3_600_000);
    const again = reopen(r, 1);
    await again.start();
    await again.tick();
    expect(r.ringFiles()).toEqual(before);
    expect(again.status().ringSeconds).toBe(30);
    // "Save the last minute" reaches back across the restart: the 300 states before it, and the new one.
    again.record('state', fakeState(1));
    const saved = await again.keepLast(1);
    expect((await readBack(again.kept.fileOf(saved.id))).counts['/robot/state']).toBe(301);
    // The bound still holds: a minute recorded since leaves nothing of the time before.
    for (let second = 0; second < 75; second += 1) {
      for (let i = 0; i < 10; i += 1) {
        again.record('state', fakeState(i));
        r.clock.advance(100);
      }
      await again.tick();
    }
    await again.idle();
    expect(r.ringFiles().filter((name) => before.includes(name))).toEqual([]);
    expect(again.status().ringSeconds).toBeLessThanOrEqual(60 + 20);
    await again.stop();
  });

  it('a clock set forward while recording deletes nothing; set back, the ring still keeps its length', async () => {
    rig = await startRecorderRig({ maxMinutes: 1, segmentMs: 10_000 });
    const r = rig;
    await recordFor(r, 20);
    const before = r.ringFiles();
    // A board without a real-time clock syncs it once it is online: a day ahead in one step.
    r.clock.set(r.clock.now() + 86_400_000);
    await recordFor(r, 20);
    expect(before.every((name) => r.ringFiles().includes(name))).toBe(true);
    expect(r.recorder.status().ringSeconds).toBeGreaterThanOrEqual(40);
    // Set back two days: what was recorded since counts, and the oldest files go as before.
    r.clock.set(r.clock.now() - 2 * 86_400_000);
    await recordFor(r, 100);
    expect(r.ringFiles().filter((name) => before.includes(name))).toEqual([]);
    expect(r.recorder.status().ringSeconds).toBeLessThanOrEqual(60 + 20);
    expect(r.recorder.status().ringSeconds).toBeGreaterThanOrEqual(60);
  });

  it('stays within the byte bound whatever arrives', async () => {
    const maxBytes = 4 * 1024 * 1024;
    rig = await startRecorderRig({ maxBytes, segmentMs: 60_000 });
    const picture = new Uint8Array(30_000).fill(7);
    let peak = 0;
    for (let second = 0; second < 120; second += 1) {
      for (let f = 0; f < 5; f += 1) rig.recorder.recordBytes('camera', picture);
      rig.clock.advance(1000);
      await rig.recorder.tick();
      await rig.recorder.idle();
      peak = Math.max(peak, rig.ringBytes());
    }
    // 120 s at 150 KB/s is 18 MB: far past the bound, which holds at every tick.
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(rig.recorder.status().ringBytes).toBeGreaterThan(maxBytes / 4);
  });
});

describe('keeping what matters', () => {
  it('a STOP keeps the 60 s before it and the 30 s after it, once those are recorded', async () => {
    rig = await startRecorderRig({ segmentMs: 10_000 });
    const r = rig;
    const stopAt = r.clock.now() + 100_000;
    await recordFor(r, 100);
    expect(r.clock.now()).toBe(stopAt);
    r.recorder.noteStop(stopAt);
    await recordFor(r, 29);
    expect(r.recorder.kept.list()).toEqual([]);
    await recordFor(r, 2);
    const [kept] = r.recorder.kept.list();
    expect(kept?.reason).toBe('stop');
    expect(Date.parse(kept?.startedAt ?? '')).toBe(stopAt - 60_000);
    expect(Date.parse(kept?.endedAt ?? '')).toBe(stopAt + 30_000);
    const back = await readBack(r.recorder.kept.fileOf(kept?.id ?? ''));
    expect(back.counts['/robot/state']).toBe(901);
  });

  it('STOPs pressed again and again keep one recording holding all of them', async () => {
    rig = await startRecorderRig({ segmentMs: 10_000 });
    const r = rig;
    const firstStop = r.clock.now() + 100_000;
    await recordFor(r, 100);
    r.recorder.noteStop(firstStop);
    await recordFor(r, 10);
    r.recorder.noteStop(firstStop + 10_000);
    expect(r.recorder.status().pendingStops).toEqual([firstStop, firstStop + 10_000]);
    // The first STOP's 30 s after are over, the second's are not: nothing is kept yet.
    await recordFor(r, 25);
    expect(r.recorder.kept.list()).toEqual([]);
    await recordFor(r, 6);
    const kept = r.recorder.kept.list();
    expect(kept).toHaveLength(1);
    expect(Date.parse(kept[0]?.startedAt ?? '')).toBe(firstStop - 60_000);
    expect(Date.parse(kept[0]?.endedAt ?? '')).toBe(firstStop + 40_000);
    expect(r.recorder.status().pendingStops).toEqual([]);
  });

  it('saves the last N minutes into a file the ring never touches, readable with the indexed reader', async () => {
    rig = await startRecorderRig({ maxMinutes: 2, segmentMs: 10_000 });
    const r = rig;
    await recordFor(r, 30, (i) => {
      if (i % 2 === 0)
        r.recorder.recordBytes(
          'camera',
          new TextEncoder().encode(
            JSON.stringify({ timestamp: { sec: 0, nsec: 0 }, frame_id: 'camera', data: 'AAAA', format: 'jpeg' }),
          ),
        );
      if (i === 50) r.recorder.record('control', { action: 'look', credential: 'token', outcome: 'ok' });
      if (i === 60) r.recorder.record('event', { action: 'look', text: 'look', credential: 'token' });
      if (i === 70) r.recorder.record('agent', { id: 1, role: 'user', persona: 'dashboard', text: 'hi' });
      if (i === 80) r.recorder.record('health', { ok: true, presence: 'connected', camera: 'live', problems: [] });
      if (i === 90) r.recorder.recordAppEvent({ app: 'demo', phase: 'start' });
      if (i % 3 === 0) r.recorder.record('pose', { timestamp: { sec: 0, nsec: 0 }, frame_id: 'body', pose: {} });
    });
    const saved = await r.recorder.keepLast(1, 'last minute');
    expect(saved).toMatchObject({ name: 'last minute', reason: 'manual', messages: expect.any(Number) });
    const back = await readBack(r.recorder.kept.fileOf(saved.id));
    expect(back.schemas.sort()).toEqual(CHANNEL_KINDS.map(schemaName).sort());
    expect(back.topics.sort()).toEqual(CHANNEL_KINDS.map((k) => CHANNELS[k].topic).sort());
    expect(back.counts).toEqual({
      '/robot/state': 300,
      '/camera/jpeg': 150,
      '/robot/head_pose': 100,
      '/control': 1,
      '/events': 1,
      '/agent/log': 1,
      '/health': 1,
      '/apps': 1,
    });
    expect(back.times).toEqual([...back.times].sort((a, b) => a - b));
    // Two more minutes: the ring forgets, the kept file does not.
    await recordFor(r, 180);
    expect((await readBack(r.recorder.kept.fileOf(saved.id))).counts['/robot/state']).toBe(300);
  });

  it('keeps a message written in the same millisecond as the save before it', async () => {
    rig = await startRecorderRig();
    const r = rig;
    r.recorder.record('control', { action: 'look', credential: 'token', outcome: 'ok' });
    await r.recorder.keepLast(1);
    // The clock has not moved: this message opens a segment named a millisecond later than itself.
    r.recorder.record('control', { action: 'stop', credential: 'token', outcome: 'ok' });
    const second = await r.recorder.keepLast(1);
    const back = await readBack(r.recorder.kept.fileOf(second.id));
    expect(back.messages.map((m) => (m.value as { action: string }).action)).toEqual(['look', 'stop']);
  });

  it('refuses a window longer than the ring, with a 400', async () => {
    rig = await startRecorderRig({ maxMinutes: 2 });
    await expect(rig.recorder.keepLast(3)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('kept recordings and the ring survive a restart; names and deletions persist', async () => {
    rig = await startRecorderRig({ segmentMs: 10_000 });
    const r = rig;
    await recordFor(r, 20);
    const saved = await r.recorder.keepLast(1);
    await recordFor(r, 5);
    await r.recorder.stop();
    const again = reopen(r, 10);
    await again.start();
    expect(again.kept.list().map((k) => k.id)).toEqual([saved.id]);
    expect((await readBack(again.kept.fileOf(saved.id))).counts['/robot/state']).toBe(200);
    // The ring from before the restart is still there: a save now reaches back before it.
    r.clock.advance(1000);
    again.record('state', fakeState(1));
    const across = await again.keepLast(1);
    expect((await readBack(again.kept.fileOf(across.id))).counts['/robot/state']).toBe(251);
    await again.kept.rename(saved.id, 'renamed');
    await again.kept.remove(across.id);
    await again.stop();
    const third = reopen(r, 10);
    await third.start();
    expect(third.kept.list().map((k) => k.name)).toEqual(['renamed']);
    await third.stop();
  });

  it('ROBOT_RECORD_MINUTES=0 turns it off: nothing recorded, saving says why', async () => {
    rig = await startRecorderRig({ maxMinutes: 0 });
    rig.recorder.record('state', fakeState(1));
    rig.recorder.noteStop(rig.clock.now());
    expect(rig.recorder.status()).toMatchObject({ recording: false, channels: {}, pendingStops: [] });
    await expect(rig.recorder.keepLast(1)).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
  });

  it('lists again a kept file its index lost (an index set aside as unreadable): never deleted', async () => {
    rig = await startRecorderRig({ segmentMs: 10_000 });
    const r = rig;
    await recordFor(r, 20);
    const saved = await r.recorder.keepLast(1, 'precious');
    await r.recorder.stop();
    writeFileSync(join(r.dir, 'kept', 'kept.json'), '{ not json');
    const again = reopen(r, 10);
    await again.start();
    expect(again.kept.list()).toMatchObject([
      {
        id: saved.id,
        reason: 'manual',
        startedAt: saved.startedAt,
        endedAt: saved.endedAt,
        messages: saved.messages,
        bytes: saved.bytes,
      },
    ]);
    expect(again.kept.list()[0]?.name).toMatch(/^Recovered /);
    await again.stop();
  });
});
