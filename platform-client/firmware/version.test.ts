import { describe, expect, it } from 'vitest';
import { compareVersions } from './version.ts';

describe('compareVersions', () => {
  it('compares runs of integers numerically, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.9.9', '1.10.0')).toBe(-1);
    expect(compareVersions('v2', '1.99')).toBe(1);
  });

  it('treats missing runs as zero', () => {
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('1.2', '1.2.1')).toBe(-1);
  });

  it('ignores non-digit text between runs', () => {
    expect(compareVersions('build-7', 'release_7')).toBe(0);
    expect(compareVersions('2024.11.3-rc1', '2024.11.3')).toBe(1);
  });
});
