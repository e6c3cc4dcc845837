/**
 * The desktop window's size and position, remembered in `<data dir>/window-state.json`. Written
 * atomically (temp file, fsync, rename; docs/architecture.md, "Configuration and persistence") and placed back only where a display
 * can show it: a monitor unplugged since last time must not leave the window off-screen.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export const WINDOW_STATE_FILE = 'window-state.json';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** The normal (not maximised) bounds, so un-maximising returns to them. */
  bounds: Rect;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 };
export const MIN_SIZE = { width: 640, height: 480 };

export function windowStateFile(dataDir: string): string {
  return join(dataDir, WINDOW_STATE_FILE);
}

/** A stored state, or undefined for anything not shaped like one. */
export function parseWindowState(value: unknown): WindowState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { bounds, maximized } = value as Partial<Record<keyof WindowState, unknown>>;
  if (typeof maximized !== 'boolean' || typeof bounds !== 'object' || bounds === null) return undefined;
  const rect = bounds as Record<string, unknown>;
  const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((k) => rect[k]);
  const finite = [x, y, width, height].every((n) => typeof n === 'number' && Number.isFinite(n));
  if (!finite || (width as number) <= 0 || (height as number) <= 0) return undefined;
  return { bounds: { x: x as number, y: y as number, width: width as number, height: height as number }, maximized };
}

/**
 * Where the window opens: the saved bounds moved and shrunk into the work area of the display
 * they overlap most, or a default size centred on the primary display when they overlap none.
 */
export function placeWindow(saved: WindowState | undefined, workAreas: readonly Rect[], primary: Rect): WindowState {
  const host = saved ? bestOverlap(saved.bounds, workAreas) : undefined;
  if (!saved || !host) return { bounds: centred(DEFAULT_SIZE, primary), maximized: saved?.maximized ?? false };
  const width = Math.min(Math.max(saved.bounds.width, MIN_SIZE.width), host.width);
  const height = Math.min(Math.max(saved.bounds.height, MIN_SIZE.height), host.height);
  const x = clamp(saved.bounds.x, host.x, host.x + host.width - width);
  const y = clamp(saved.bounds.y, host.y, host.y + host.height - height);
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}

function bestOverlap(rect: Rect, areas: readonly Rect[]): Rect | undefined {
  let best: Rect | undefined;
  let bestArea = 0;
  for (const area of areas) {
    const overlap = overlapArea(rect, area);
    if (overlap > bestArea) [best, bestArea] = [area, overlap];
  }
  return best;
}

function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function centred(size: { width: number; height: number }, area: Rect): Rect {
  const width = Math.min(size.width, area.width);
  const height = Math.min(size.height, area.height);
  return {
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2),
    width,
    height,
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

export type ReadResult = { state: WindowState | undefined; problem?: string };

/**
 * Reads the saved state. A missing file is a first run; a corrupt one is reported and set aside
 * as `window-state.json.corrupt-<time>` (docs/architecture.md, "Configuration and persistence": never silently replaced).
 */
export async function readWindowState(file: string, now: () => number = Date.now): Promise<ReadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { state: undefined };
  }
  let state: WindowState | undefined;
  try {
    state = parseWindowState(JSON.parse(text) as unknown);
  } catch {
    state = undefined;
  }
  if (state) return { state };
  const aside = `${file}.corrupt-${now()}`;
  await rename(file, aside).catch(() => undefined);
  return { state: undefined, problem: `${file} was not a window state; moved aside to ${aside}` };
}

/** Writes the state so that a kill at any instant leaves the old file or the new one, whole. */
export async function writeWindowState(file: string, state: WindowState): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

export interface WindowStateSaver {
  /** The window moved or was resized: saved after a quiet moment, not on every pixel. */
  update(state: WindowState): void;
  /** Writes any pending state now (the window is closing). */
  flush(): Promise<void>;
}

export function createWindowStateSaver(options: {
  file: string;
  delayMs?: number;
  write?: (file: string, state: WindowState) => Promise<void>;
  onError: (error: unknown) => void;
}): WindowStateSaver {
  const write = options.write ?? writeWindowState;
  let pending: WindowState | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Writes run one after another, so an older state never lands after a newer one.
  let chain: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const state = pending;
    pending = undefined;
    if (state) chain = chain.then(() => write(options.file, state)).catch(options.onError);
    return chain;
  };
  return {
    update(state) {
      pending = state;
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), options.delayMs ?? 500);
    },
    flush,
  };
}
