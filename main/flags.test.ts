/** The serve command line: switches of sub-commands, and flags written back for a child process. */
import { describe, expect, it } from 'vitest';
import { formatFlags, parseArgs } from './flags.ts';

describe('parseArgs', () => {
  it('takes --dry-run as a switch of a sub-command, and flags anywhere', () => {
    expect(parseArgs(['install-service', '--dry-run', '--robot', 'both'])).toEqual({
      command: 'install-service',
      flags: { robot: 'both' },
      options: { 'dry-run': 'true' },
    });
    expect(() => parseArgs(['--dry-run'])).toThrow(/unknown flag --dry-run/);
  });
});

describe('formatFlags', () => {
  it('writes flags that parse back to the same flags', () => {
    const flags = { sim: true, robot: 'both', daemon: 'http://127.0.0.1:8000', host: '127.0.0.1', port: '0', dataDir: '/tmp/a b' };
    expect(parseArgs(formatFlags(flags)).flags).toEqual(flags);
    expect(formatFlags({})).toEqual([]);
  });
});
