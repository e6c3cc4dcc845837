/**
 * A recorder in a fresh folder on a fake clock, ticked by the test, and helpers to read what it
 * wrote back with the official indexed reader.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeClock, type FakeClock } from '../../auth/testing/fake-clock.ts';
import { silentLog } from '../../log.ts';
import { jsonOf, msOf, openMcapReader } from '../mcap-file.ts';
import { createRecorder, type Recorder, type RecorderOptions } from '../recorder.ts';

export interface RecorderRig {
  dir: string;
  clock: FakeClock;
  recorder: Recorder;
  /** Bytes of every ring file on disk now. */
  ringBytes(): number;
  ringFiles(): string[];
  close(): Promise<void>;
}

export async function startRecorderRig(options: Partial<RecorderOptions> = {}): Promise<RecorderRig> {
  const dir = mkdtempSync(join(tmpdir(), 'recorder-test-'));
  const clock = createFakeClock();
  const recorder = createRecorder({
    dir,
    maxMinutes: 10,
    maxBytes: 500 * 1024 * 1024,
    cameraFps: 5,
    clock,
    log: silentLog,
    tickMs: null,
    ...options,
  });
  await recorder.start();
  const ringDir = join(dir, 'ring');
  const ringFiles = () => (existsSync(ringDir) ? readdirSync(ringDir).filter((n) => n.endsWith('.mcap')) : []);
  return {
    dir,
    clock,
    recorder,
    ringFiles,
    ringBytes: () => ringFiles().reduce((sum, n) => sum + statSync(join(ringDir, n)).size, 0),
    async close() {
      await recorder.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ReadBack {
  schemas: string[];
  topics: string[];
  counts: Record<string, number>;
  times: number[];
  messages: { topic: string; ms: number; value: unknown }[];
}

/** Everything in a file, through McapIndexedReader (the summary, its index, then the messages). */
export async function readBack(path: string): Promise<ReadBack> {
  const { reader, close } = await openMcapReader(path);
  try {
    const out: ReadBack = {
      schemas: [...reader.schemasById.values()].map((s) => s.name),
      topics: [...reader.channelsById.values()].map((c) => c.topic),
      counts: {},
      times: [],
      messages: [],
    };
    for await (const m of reader.readMessages({ validateCrcs: true })) {
      const topic = reader.channelsById.get(m.channelId)?.topic ?? '?';
      out.counts[topic] = (out.counts[topic] ?? 0) + 1;
      out.times.push(msOf(m.logTime));
      out.messages.push({ topic, ms: msOf(m.logTime), value: jsonOf(m) });
    }
    return out;
  } finally {
    await close();
  }
}

/** A state like the robot core builds, with a head yaw that tells samples apart. */
export function fakeState(yaw: number): object {
  return {
    timestamp: new Date(0).toISOString(),
    ageMs: 0,
    head: { x: 0, y: 0, z: 5, roll: 0, pitch: -3, yaw },
    bodyYaw: 0,
    antennas: { right: 10, left: -10 },
    motorMode: 'enabled',
    loopHz: 30,
    daemon: { presence: 'connected' },
    services: {},
  };
}
