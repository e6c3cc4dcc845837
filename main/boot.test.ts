/**
 * `<data dir>/settings.json` at start: missing is no settings; there but not a JSON object, or
 * not readable, stops the start with a message naming the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readSettings } from './boot.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const dataDir = () => (dir = mkdtempSync(join(tmpdir(), 'boot-settings-')));

it('reads the settings, and no file is no settings', () => {
  const data = dataDir();
  expect(readSettings(data)).toEqual({});
  writeFileSync(join(data, 'settings.json'), '{"ROBOT_HOST": "127.0.0.1"}');
  expect(readSettings(data)).toEqual({ ROBOT_HOST: '127.0.0.1' });
});

it('stops the start on a settings.json that is not a JSON object', () => {
  const data = dataDir();
  writeFileSync(join(data, 'settings.json'), '["ROBOT_HOST"]');
  expect(() => readSettings(data)).toThrow(/settings\.json is not a JSON object/);
});

it('stops the start on a settings.json that cannot be read, where its settings were dropped without a word', () => {
  const data = dataDir();
  mkdirSync(join(data, 'settings.json'));
  expect(() => readSettings(data)).toThrow(/settings\.json could not be read \(EISDIR/);
});

it('stops the start on a settings.json that is a pipe, a device or huge, before reading a byte of it', () => {
  const data = dataDir();
  const file = join(data, 'settings.json');
  execFileSync('mkfifo', [file]);
  expect(() => readSettings(data)).toThrow(/settings\.json could not be read \(not a regular file/);
  rmSync(file);
  symlinkSync('/dev/zero', file);
  expect(() => readSettings(data)).toThrow(/settings\.json could not be read \(not a regular file/);
  rmSync(file);
  writeFileSync(file, '{}');
  truncateSync(file, 2 * 1024 * 1024);
  expect(() => readSettings(data)).toThrow(/settings\.json could not be read \(2097152 bytes/);
});
