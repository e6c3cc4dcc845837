/**
 * The two places the daemon's log can be followed from, read-only, each handing every message on
 * as it arrives:
 * - the systemd journal of the daemon's unit when the daemon runs on this host under systemd:
 *   `journalctl -u reachy-mini-daemon -b -f -o json` (one JSON object per line; `MESSAGE` is a
 *   string, or an array of bytes when it is not UTF-8). A restart of the follow resumes after the
 *   last cursor, so no line is read twice;
 * - the daemon's own log stream, `WS /logs/ws/daemon` (Wireless builds, daemon 1.10 to 1.13:
 *   the daemon runs `journalctl -u reachy-mini-daemon -b -f -n 100 --output short-iso` and sends
 *   each line as a text message, an empty message as a keep-alive every second of quiet).
 */
import { spawn as spawnProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import WebSocket from 'ws';
import { parseJsonObject } from '../json-object.ts';
import { splitJournalLine } from './journal-lines.ts';
import { daemonSocketOptions } from '../daemon/daemon-socket.ts';

/** What a follower reports: one message of the daemon, with its ISO time when known. */
export type OnMessage = (time: string | null, message: string) => void;

export interface Following {
  stop(): void;
}

/** The part of a child process the journal follower uses (tests hand in their own). */
export interface FollowProcess {
  stdout: Readable | null;
  stderr: Readable | null;
  kill(): unknown;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
}

export type Spawner = (command: string, args: string[]) => FollowProcess;

export const spawnJournalctl: Spawner = (command, args) =>
  spawnProcess(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });

export interface JournalFollowOptions {
  unit: string;
  spawn?: Spawner;
  /** Resume after this journal cursor (a restart); else start with the last `backlog` entries. */
  afterCursor?: string | null;
  backlog?: number;
  onMessage: OnMessage;
  onCursor?(cursor: string): void;
  /** The follow ended by itself (journalctl exited or could not start): why. */
  onEnd(reason: string): void;
}

/** journald's `__REALTIME_TIMESTAMP` (microseconds since the epoch, a decimal string) as ISO. */
function isoFromMicros(value: unknown): string | null {
  const micros = typeof value === 'string' && /^\d{1,17}$/.test(value) ? Number(value) : NaN;
  // Anything but up to 17 digits (the year 5138) is no time: Number('1e30') would be a Date out of
  // range, whose toISOString throws.
  const date = new Date(Math.floor(micros / 1000));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** journald's MESSAGE: a string, or an array of bytes when it is not valid UTF-8 text. */
function journalText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
    return Buffer.from(value as number[]).toString('utf8');
  return null;
}

export interface JournalEntry {
  time: string | null;
  /** The entry's text, or null when it carries none that can be read. */
  message: string | null;
  cursor: string | null;
}

/**
 * One line of `journalctl -o json`, read member by member: a line that is not a JSON object is
 * skipped (undefined), and a member of another type reads as absent. The line listener must not
 * throw: an exception there would be uncaught and end the cockpit.
 */
export function readJournalEntry(line: string): JournalEntry | undefined {
  const fields = parseJsonObject(line);
  if (fields === undefined) return undefined;
  return {
    time: isoFromMicros(fields['__REALTIME_TIMESTAMP']),
    message: journalText(fields['MESSAGE']),
    // A cursor goes back to journalctl as an argument; journald's are about 150 characters.
    cursor: typeof fields['__CURSOR'] === 'string' && fields['__CURSOR'].length <= 512 ? fields['__CURSOR'] : null,
  };
}

export function followJournal(options: JournalFollowOptions): Following {
  const args = ['-u', options.unit, '-b', '-f', '-o', 'json', '--no-pager'];
  if (options.afterCursor) args.push(`--after-cursor=${options.afterCursor}`);
  else args.push('-n', String(options.backlog ?? 1000));
  let stopped = false;
  let stderr = '';
  const child = (options.spawn ?? spawnJournalctl)('journalctl', args);
  const end = (reason: string) => {
    if (stopped) return;
    stopped = true;
    options.onEnd(reason);
  };
  child.once('error', (error) => end(`journalctl could not run: ${error.message}`));
  child.once('exit', (code) =>
    end(`journalctl ended (exit code ${code ?? 'none'})${stderr ? `: ${stderr.trim().split('\n')[0]}` : ''}`),
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 2000) stderr += chunk.toString('utf8');
  });
  if (child.stdout)
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (stopped || line.trim() === '') return;
      const entry = readJournalEntry(line);
      if (entry === undefined) return;
      if (entry.cursor !== null) options.onCursor?.(entry.cursor);
      if (entry.message !== null) options.onMessage(entry.time, entry.message);
    });
  return {
    stop() {
      stopped = true;
      child.kill();
    },
  };
}

export interface StreamFollowOptions {
  url: string;
  onMessage: OnMessage;
  onEnd(reason: string): void;
}

export type StreamFollower = (options: StreamFollowOptions) => Following;

export const followLogStream: StreamFollower = (options) => {
  let stopped = false;
  const ws = new WebSocket(options.url, daemonSocketOptions());
  const end = (reason: string) => {
    if (stopped) return;
    stopped = true;
    options.onEnd(reason);
  };
  ws.on('message', (data: Buffer) => {
    const text = data.toString('utf8');
    if (stopped || text === '') return;
    // The daemon reports its own failure to read the journal as a line starting "ERROR:".
    if (text.startsWith('ERROR: ')) return end(`the daemon's log stream says: ${text.slice(7)}`);
    for (const line of text.split('\n')) {
      const { time, message } = splitJournalLine(line);
      options.onMessage(time, message);
    }
  });
  ws.on('unexpected-response', (_req, res) => end(`the daemon answered ${res.statusCode ?? 0}`));
  ws.on('error', (error) => end(error.message));
  ws.on('close', () => end('the daemon closed its log stream'));
  return {
    stop() {
      stopped = true;
      ws.terminate();
    },
  };
};
