import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createWindowStateSaver,
  DEFAULT_SIZE,
  parseWindowState,
  placeWindow,
  readWindowState,
  windowStateFile,
  writeWindowState,
  type Rect,
  type WindowState,
} from './window-state.ts';

const PRIMARY: Rect = { x: 0, y: 0, width: 1920, height: 1050 };
const RIGHT: Rect = { x: 1920, y: 0, width: 1280, height: 1000 };
const state = (bounds: Rect, maximized = false): WindowState => ({ bounds, maximized });

describe('placeWindow', () => {
  it('centres the default size on the primary display on first run', () => {
    expect(placeWindow(undefined, [PRIMARY], PRIMARY)).toEqual(
      state({ x: 320, y: 115, width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height }),
    );
  });

  it('keeps bounds that fit where they are, and the maximised flag', () => {
    const saved = state({ x: 2000, y: 40, width: 900, height: 700 }, true);
    expect(placeWindow(saved, [PRIMARY, RIGHT], PRIMARY)).toEqual(saved);
  });

  it('moves a window that hangs off its display back inside it', () => {
    const saved = state({ x: 1700, y: 900, width: 800, height: 600 });
    // It overlaps the right display most (580 × 100 px against 220 × 150 on the primary).
    expect(placeWindow(saved, [PRIMARY, RIGHT], PRIMARY).bounds).toEqual({ x: 1920, y: 400, width: 800, height: 600 });
  });

  it('recentres a window whose display is gone', () => {
    const saved = state({ x: 2000, y: 40, width: 900, height: 700 });
    expect(placeWindow(saved, [PRIMARY], PRIMARY).bounds).toEqual({ x: 320, y: 115, width: 1280, height: 820 });
  });

  it('shrinks a window larger than its display and enlarges one below the minimum', () => {
    expect(placeWindow(state({ x: 0, y: 0, width: 4000, height: 3000 }), [PRIMARY], PRIMARY).bounds).toEqual(PRIMARY);
    expect(placeWindow(state({ x: 10, y: 10, width: 100, height: 50 }), [PRIMARY], PRIMARY).bounds).toEqual({
      x: 10,
      y: 10,
      width: 640,
      height: 480,
    });
  });

  it('handles displays left of and above the primary (negative coordinates)', () => {
    const left: Rect = { x: -1280, y: -200, width: 1280, height: 1024 };
    const saved = state({ x: -1400, y: -300, width: 800, height: 600 });
    expect(placeWindow(saved, [PRIMARY, left], PRIMARY).bounds).toEqual({ x: -1280, y: -200, width: 800, height: 600 });
  });
});

describe('parseWindowState', () => {
  it.each([
    [null],
    [{}],
    [{ bounds: { x: 0, y: 0, width: 10, height: 10 } }],
    [{ bounds: { x: 0, y: 0, width: 0, height: 10 }, maximized: false }],
    [{ bounds: { x: 'a', y: 0, width: 10, height: 10 }, maximized: false }],
    [{ bounds: { x: Infinity, y: 0, width: 10, height: 10 }, maximized: false }],
  ])('refuses %j', (value) => {
    expect(parseWindowState(value)).toBeUndefined();
  });

  it('keeps only the known fields', () => {
    expect(parseWindowState({ bounds: { x: 1, y: 2, width: 3, height: 4, z: 9 }, maximized: true, extra: 1 })).toEqual(
      state({ x: 1, y: 2, width: 3, height: 4 }, true),
    );
  });
});

describe('reading and writing the file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'window-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips a state with mode 0600 and no temp file left behind', async () => {
    const file = windowStateFile(dir);
    const saved = state({ x: 5, y: 6, width: 700, height: 500 }, true);
    await writeWindowState(file, saved);
    expect(await readWindowState(file)).toEqual({ state: saved });
    expect(readdirSync(dir)).toEqual(['window-state.json']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('treats a missing file as a first run', async () => {
    expect(await readWindowState(windowStateFile(dir))).toEqual({ state: undefined });
  });

  it('reports a corrupt file and sets it aside', async () => {
    const file = windowStateFile(dir);
    writeFileSync(file, '{"bounds": ');
    const result = await readWindowState(file, () => 42);
    expect(result.state).toBeUndefined();
    expect(result.problem).toContain('moved aside');
    expect(readFileSync(`${file}.corrupt-42`, 'utf8')).toBe('{"bounds": ');
    expect(readdirSync(dir)).toEqual(['window-state.json.corrupt-42']);
  });
});

describe('createWindowStateSaver', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the last state once after a quiet moment', async () => {
    const writes: WindowState[] = [];
    const saver = createWindowStateSaver({
      file: 'f',
      delayMs: 500,
      write: async (_f, s) => void writes.push(s),
      onError: () => undefined,
    });
    saver.update(state({ x: 1, y: 1, width: 700, height: 500 }));
    vi.advanceTimersByTime(300);
    saver.update(state({ x: 2, y: 2, width: 700, height: 500 }));
    vi.advanceTimersByTime(499);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([state({ x: 2, y: 2, width: 700, height: 500 })]);
  });

  it('flushes a pending state at once, and reports write errors without throwing', async () => {
    const errors: unknown[] = [];
    const saver = createWindowStateSaver({
      file: 'f',
      write: () => Promise.reject(new Error('disk full')),
      onError: (e) => errors.push(e),
    });
    saver.update(state({ x: 1, y: 1, width: 700, height: 500 }));
    await saver.flush();
    expect(errors).toHaveLength(1);
    await saver.flush();
    expect(errors).toHaveLength(1);
  });
});
