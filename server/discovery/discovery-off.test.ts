import { describe, expect, it } from 'vitest';
import { discoveryOffReason } from './index.ts';
import { localHostLabel } from './network-text.ts';

describe('when discovery runs', () => {
  it('is off when switched off or bound to loopback only, and on for a LAN bind', () => {
    expect(discoveryOffReason({ host: '0.0.0.0', mdns: false })).toMatch(/ROBOT_MDNS=0/);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.3.2.1']) expect(discoveryOffReason({ host, mdns: true }), host).toMatch(/bound to/);
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) expect(discoveryOffReason({ host, mdns: true }), host).toBeUndefined();
  });
});

describe('the .local name of a robot', () => {
  it('keeps letters, digits and hyphens of the name, or none', () => {
    expect(localHostLabel('Desk robot')).toBe('desk-robot');
    expect(localHostLabel('  Rêve #2 — salon ')).toBe('reve-2-salon');
    expect(localHostLabel('<script>')).toBe('script');
    expect(localHostLabel('ロボット')).toBeNull();
    expect(localHostLabel('x'.repeat(80))?.length).toBe(63);
  });
});
