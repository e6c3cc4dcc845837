import { describe, expect, it } from 'vitest';
import { createLog } from '../log.ts';
import { createAutonomyRegistry, type Autonomous } from './autonomy.ts';

function recorder(name: string, log: string[]): Autonomous {
  return { pause: () => void log.push(`${name} pause`), resume: () => void log.push(`${name} resume`) };
}

describe('autonomy registry', () => {
  it('pauses every persona for demo and resumes them after', async () => {
    const calls: string[] = [];
    const registry = createAutonomyRegistry(createLog({ sink: () => {} }));
    registry.register('thinker', recorder('thinker', calls));
    registry.register('voice', recorder('voice', calls));
    await registry.pauseAll('demo');
    expect(registry.status()).toEqual({
      thinker: { paused: true, reasons: ['demo'] },
      voice: { paused: true, reasons: ['demo'] },
    });
    await registry.resumeAll('demo');
    expect(calls).toEqual(['thinker pause', 'voice pause', 'thinker resume', 'voice resume']);
  });

  it('stays paused while any reason stands: ending demo during a latched stop wakes nobody', async () => {
    const calls: string[] = [];
    const registry = createAutonomyRegistry(createLog({ sink: () => {} }));
    registry.register('thinker', recorder('thinker', calls));
    await registry.pauseAll('stop');
    await registry.pauseAll('demo');
    await registry.resumeAll('demo');
    expect(registry.status().thinker).toEqual({ paused: true, reasons: ['stop'] });
    await registry.resumeAll('stop');
    expect(calls).toEqual(['thinker pause', 'thinker resume']);
  });

  it('pauses a persona that registers while paused, and logs one that fails', async () => {
    const lines: string[] = [];
    const calls: string[] = [];
    const registry = createAutonomyRegistry(createLog({ sink: (r) => lines.push(`${r.level} ${r.msg}`) }));
    await registry.pauseAll('demo');
    registry.register('late', recorder('late', calls));
    const unregister = registry.register('broken', {
      pause: () => Promise.reject(new Error('unit not found')),
      resume: () => {},
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['late pause']);
    expect(lines).toEqual(['warn persona broken failed to pause']);
    unregister();
    expect(Object.keys(registry.status())).toEqual(['late']);
  });
});
