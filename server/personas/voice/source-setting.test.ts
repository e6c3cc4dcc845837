import { describe, expect, it } from 'vitest';
import { describeSource, parseSourceSetting } from './source-setting.ts';

describe('source setting', () => {
  it.each([
    ['device', 'linux', { kind: 'device', spec: { device: 'default', platform: 'linux' } }],
    ['device', 'darwin', { kind: 'device', spec: { device: '0', platform: 'darwin' } }],
    ['device:USB Mic', 'win32', { kind: 'device', spec: { device: 'USB Mic', platform: 'win32' } }],
    ['pulse:default', 'linux', { kind: 'device', spec: { device: 'default', platform: 'linux', backend: 'pulse' } }],
    ['alsa:hw:1,0', 'linux', { kind: 'device', spec: { device: 'hw:1,0', platform: 'linux', backend: 'alsa' } }],
    ['file:/tmp/a:b.wav', 'linux', { kind: 'file', path: '/tmp/a:b.wav' }],
    ['daemon', 'linux', { kind: 'daemon' }],
    ['daemon', 'win32', { kind: 'daemon' }],
  ] as const)('%s on %s', (raw, platform, expected) => {
    expect(parseSourceSetting(raw, platform)).toEqual(expected);
  });

  it.each([
    ['device', 'win32', /name the microphone on win32/],
    ['device:', 'linux', /needs a name/],
    ['pulse:default', 'darwin', /Linux sound system/],
    ['daemon:ws://robot:8443', 'linux', /source must be daemon, device/],
    ['robot', 'linux', /source must be/],
    ['file:/tmp/a\nb', 'linux', /source must be/],
  ] as const)('refuses %j on %s', (raw, platform, message) => {
    expect(() => parseSourceSetting(raw, platform)).toThrow(message);
  });

  it('reads back for the status line', () => {
    expect(describeSource(parseSourceSetting('device', 'linux'))).toBe('microphone default (alsa)');
    expect(describeSource(parseSourceSetting('device:0', 'darwin'))).toBe('microphone 0');
    expect(describeSource(parseSourceSetting('file:/x.wav', 'linux'))).toBe('file /x.wav');
    expect(describeSource(parseSourceSetting('daemon', 'linux'))).toBe('daemon microphone');
  });
});
