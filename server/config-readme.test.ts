/** Keeps the README's configuration table in step with the one config table (server/config.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, loadConfig, RECORDER_DEFAULTS } from './config.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));

describe('README configuration table', () => {
  it('documents every ROBOT_* variable the cockpit reads, and no other', () => {
    expect(CONFIG_KEYS.filter((key) => !section.includes(`\`${key}\``))).toEqual([]);
    const documented = new Set(section.match(/`ROBOT_[A-Z_]+`/g)?.map((k) => k.slice(1, -1)));
    expect([...documented].filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key))).toEqual([]);
  });

  it("shows the recorder's defaults as the config applies them", () => {
    const shown = (key: string) => Number(new RegExp(`\\| \`${key}\` \\| (\\d+) \\|`).exec(section)?.[1]);
    const applied = loadConfig({ env: {}, home: '/home/test', platform: 'linux' }).recorder;
    expect(applied).toEqual(RECORDER_DEFAULTS);
    expect(shown('ROBOT_RECORD_MINUTES')).toBe(applied.maxMinutes);
    expect(shown('ROBOT_RECORD_MB') * 1024 * 1024).toBe(applied.maxBytes);
    expect(shown('ROBOT_RECORD_FPS')).toBe(applied.cameraFps);
  });
});
