import { describe, expect, it } from 'vitest';
import type { AppJob } from '../../../../server/contract/index.ts';
import { jobHeadline, storeNote, uptimeText } from './apps-format.ts';

describe('apps page words', () => {
  it('counts uptime in seconds, minutes and hours', () => {
    const since = '2026-11-25T10:00:00.000Z';
    const at = (s: number) => Date.parse(since) + s * 1000;
    expect(uptimeText(since, at(42))).toBe('42 s');
    expect(uptimeText(since, at(185))).toBe('3 min 05 s');
    expect(uptimeText(since, at(2 * 3600 + 7 * 60))).toBe('2 h 07 min');
    expect(uptimeText(since, at(-5))).toBe('0 s');
  });

  it('names a job by what it does and how it ended', () => {
    const job: Omit<AppJob, 'status'> = { id: 'j', command: 'install', app: 'hello_wave', lines: [], startedAt: '' };
    expect(jobHeadline({ ...job, status: 'in_progress' })).toBe('Installing hello_wave…');
    expect(jobHeadline({ ...job, status: 'done' })).toBe('Installed hello_wave');
    expect(jobHeadline({ ...job, status: 'failed' })).toBe('Installing hello_wave failed');
  });

  it('says why the store offers nothing: not read, unreadable, empty (offline), or all installed', () => {
    const app = (name: string, installed: boolean) => ({ name, description: '', url: null, installed });
    // The daemon answers an empty store when it cannot reach Hugging Face: nothing is installed then.
    expect(storeNote([], true, '')).toBe(
      'The store lists no apps: the robot reads it from Hugging Face, so it may be offline.',
    );
    expect(storeNote([], false, 'daemon unreachable (ECONNREFUSED)')).toBe(
      'The store could not be read: daemon unreachable (ECONNREFUSED)',
    );
    expect(storeNote([], false, '')).toBe('Reading the store…');
    expect(storeNote([app('hello_wave', true)], true, '')).toBe('Every app of the store is installed.');
    expect(storeNote([app('hello_wave', true), app('clumsy_dancer', false)], true, '')).toBeNull();
  });
});
