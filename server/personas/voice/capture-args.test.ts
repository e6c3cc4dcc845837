import { describe, expect, it } from 'vitest';
import { captureArgs, fileArgs } from './capture-args.ts';

const OUT = ['-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 's16le', '-flush_packets', '1', 'pipe:1'];
const HEAD = ['-hide_banner', '-loglevel', 'error', '-nostdin'];

describe('ffmpeg capture arguments', () => {
  it.each([
    [{ device: 'default', platform: 'linux' as const }, ['-f', 'alsa', '-i', 'default']],
    [{ device: 'hw:1,0', platform: 'linux' as const, backend: 'alsa' as const }, ['-f', 'alsa', '-i', 'hw:1,0']],
    [{ device: 'default', platform: 'linux' as const, backend: 'pulse' as const }, ['-f', 'pulse', '-i', 'default']],
    [{ device: '0', platform: 'darwin' as const }, ['-f', 'avfoundation', '-i', ':0']],
    [
      { device: 'MacBook Pro Microphone', platform: 'darwin' as const },
      ['-f', 'avfoundation', '-i', ':MacBook Pro Microphone'],
    ],
    [
      { device: 'Microphone (Realtek Audio)', platform: 'win32' as const },
      ['-f', 'dshow', '-i', 'audio=Microphone (Realtek Audio)'],
    ],
  ])('%o', (spec, input) => {
    expect(captureArgs(spec)).toEqual([...HEAD, '-fflags', 'nobuffer', ...input, ...OUT]);
  });

  it('refuses a platform without a capture framework', () => {
    expect(() => captureArgs({ device: 'x', platform: 'aix' })).toThrow(/no microphone capture support on aix/);
  });

  it('reads a file as fast as it decodes, or paced like a microphone', () => {
    expect(fileArgs('/tmp/a b.wav', false)).toEqual([...HEAD, '-i', '/tmp/a b.wav', ...OUT]);
    expect(fileArgs('/tmp/a.wav', true)).toEqual([...HEAD, '-re', '-i', '/tmp/a.wav', ...OUT]);
  });
});
