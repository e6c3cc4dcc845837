/**
 * A microphone decoder that cannot run (ffmpeg missing, or one that exits at once) is tried again
 * at most once a second of audio, not at every 20 ms packet: someone listening (the voice persona
 * listens all the time) must not make the cockpit spawn fifty processes and log fifty warnings a
 * second. Each spawn of a missing binary fails on the next tick, so one turn of the event loop
 * after each packet lets the tap hear of it before the next packet comes.
 */
import { expect, it } from 'vitest';
import { createLog } from '../../log.ts';
import { createMicrophoneTap } from './microphone-tap.ts';

it('tries a decoder that keeps failing once per second of audio, not at every packet', async () => {
  const ended: string[] = [];
  const log = createLog({
    sink: (record) => {
      if (record.msg === 'microphone decoder ended; starting another') ended.push(String(record.reason));
    },
  });
  const tap = createMicrophoneTap({
    name: 'test microphone',
    log,
    onWant: () => {},
    ffmpegBinary: '/nonexistent/cockpit-test/ffmpeg',
  });
  const subscription = tap.listen({ pcm: () => {}, end: () => {} });
  try {
    const packet = Buffer.from([0xfc, 0x01]); // CELT FB 20 ms: 960 samples at 48 kHz
    // Three seconds of audio.
    for (let i = 0; i < 150; i += 1) {
      tap.opus(packet, 960);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ended).toHaveLength(3);
    expect(ended[0]).toMatch(/could not start/);
  } finally {
    subscription.close();
  }
});
