/**
 * The one daemon interface (docs/architecture.md, "House style"): a method per capability, with failures
 * mapped to DAEMON_* app errors. HttpDaemonClient is the only implementation; the simulator
 * speaks the same protocol, so tests run it against the simulator over real HTTP.
 */
import { AppError } from '../errors.ts';
import { createDaemonApps, type DaemonApps } from './apps-client.ts';
import { ok } from './daemon-reply.ts';
import { HttpTransport, type DaemonResponse } from './http-transport.ts';
import type { AppLockStatus, DaemonStatus, FaceTarget, FullBodyTarget, GotoRequest, WireDoa } from './wire.ts';

export const EMOTIONS_DATASET = 'pollen-robotics/reachy-mini-emotions-library';
export const DANCES_DATASET = 'pollen-robotics/reachy-mini-dances-library';

export interface DaemonClient {
  readonly baseUrl: string;
  /** The app store and the app running on the robot (apps-client.ts), over the same pool. */
  readonly apps: DaemonApps;
  status(): Promise<DaemonStatus>;
  /** The state body as sent: read it with full-state.ts `readFullState`. */
  fullState(query?: string): Promise<unknown>;
  doa(): Promise<WireDoa | null>;
  goto(req: GotoRequest): Promise<string>;
  setTarget(target: FullBodyTarget): Promise<'ok' | 'ignored'>;
  wakeUp(): Promise<string>;
  gotoSleep(): Promise<string>;
  playMove(dataset: string, name: string): Promise<string>;
  listMoves(dataset: string): Promise<string[]>;
  runningMoves(): Promise<string[]>;
  /** Stops one move; an already-finished move is not an error (docs/daemon.md, "Duties of the cockpit"). */
  stopMove(uuid: string): Promise<void>;
  setMotorMode(mode: string): Promise<void>;
  motorMode(): Promise<string>;
  setVolume(volume: number): Promise<number>;
  volume(): Promise<number>;
  uploadSound(name: string, data: Buffer): Promise<string>;
  playSound(file: string): Promise<void>;
  stopSound(): Promise<void>;
  setWobbling(on: boolean): Promise<void>;
  setTracking(enabled: boolean, weight?: number): Promise<{ status: string; enabled: boolean }>;
  face(): Promise<FaceTarget>;
  /** FastAPI's OpenAPI document (`/openapi.json`): the route list behind the capability map. */
  openApi(): Promise<unknown>;
  /** Who holds the robot's managed-app slot (`/api/daemon/robot-app-lock-status`). */
  appLockStatus(): Promise<AppLockStatus>;
  close(): Promise<void>;
}

export interface HttpDaemonClientOptions {
  baseUrl: string;
  timeoutMs?: number;
}

/** Slow daemon handlers (datasets, volume subprocesses) get more time than state reads. */
const SLOW_MS = 15_000;

export class HttpDaemonClient implements DaemonClient {
  readonly baseUrl: string;
  readonly apps: DaemonApps;
  private readonly http: HttpTransport;

  constructor(options: HttpDaemonClientOptions) {
    this.baseUrl = options.baseUrl;
    this.http = new HttpTransport({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs ?? 2000 });
    this.apps = createDaemonApps(this.http);
  }

  async status(): Promise<DaemonStatus> {
    return ok(await this.http.request({ path: '/api/daemon/status' }), 'status') as DaemonStatus;
  }

  async fullState(query = ''): Promise<unknown> {
    const path = `/api/state/full${query ? `?${query}` : ''}`;
    return ok(await this.http.request({ path }), 'state');
  }

  async doa(): Promise<WireDoa | null> {
    return ok(await this.http.request({ path: '/api/state/doa' }), 'doa') as WireDoa | null;
  }

  async goto(req: GotoRequest): Promise<string> {
    return uuidOf(ok(await this.post('/api/move/goto', req), 'goto'));
  }

  async setTarget(target: FullBodyTarget): Promise<'ok' | 'ignored'> {
    const body = ok(await this.post('/api/move/set_target', target), 'set_target') as { status?: string };
    return body.status === 'ignored' ? 'ignored' : 'ok';
  }

  async wakeUp(): Promise<string> {
    return uuidOf(ok(await this.post('/api/move/play/wake_up'), 'wake_up'));
  }

  async gotoSleep(): Promise<string> {
    return uuidOf(ok(await this.post('/api/move/play/goto_sleep'), 'goto_sleep'));
  }

  async playMove(dataset: string, name: string): Promise<string> {
    const path = `/api/move/play/recorded-move-dataset/${dataset}/${encodeURIComponent(name)}`;
    return uuidOf(ok(await this.post(path, undefined, SLOW_MS), `play ${name}`));
  }

  async listMoves(dataset: string): Promise<string[]> {
    const path = `/api/move/recorded-move-datasets/list/${dataset}`;
    const body = ok(await this.http.request({ path, timeoutMs: SLOW_MS }), 'move list');
    if (!Array.isArray(body)) throw new AppError('DAEMON_ERROR', 'daemon sent a malformed move list');
    return body.filter((n): n is string => typeof n === 'string');
  }

  async runningMoves(): Promise<string[]> {
    const body = ok(await this.http.request({ path: '/api/move/running' }), 'running');
    // Only entries naming a move: each one may be stopped by STOP, so nothing else goes back.
    return Array.isArray(body) ? body.map(uuidMember).filter(isMoveUuid) : [];
  }

  async stopMove(uuid: string): Promise<void> {
    const res = await this.post('/api/move/stop', { uuid });
    // The real daemon answers 500 text/plain for a move that already ended: benign.
    if (res.status === 500) return;
    ok(res, 'stop');
  }

  async setMotorMode(mode: string): Promise<void> {
    ok(await this.post(`/api/motors/set_mode/${encodeURIComponent(mode)}`), 'motor mode');
  }

  async motorMode(): Promise<string> {
    return String((ok(await this.http.request({ path: '/api/motors/status' }), 'motors') as { mode?: string }).mode);
  }

  async setVolume(volume: number): Promise<number> {
    const body = ok(await this.post('/api/volume/set', { volume }, SLOW_MS), 'volume') as { volume?: number };
    return Number(body.volume ?? volume);
  }

  async volume(): Promise<number> {
    const res = await this.http.request({ path: '/api/volume/current', timeoutMs: SLOW_MS });
    return Number((ok(res, 'volume') as { volume?: number }).volume);
  }

  async uploadSound(name: string, data: Buffer): Promise<string> {
    const boundary = `----cockpit${Date.now().toString(16)}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const payload = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await this.http.request({
      method: 'POST',
      path: '/api/media/sounds/upload',
      raw: { data: payload, contentType: `multipart/form-data; boundary=${boundary}` },
      timeoutMs: SLOW_MS,
    });
    return String((ok(res, 'sound upload') as { path?: string }).path ?? name);
  }

  async playSound(file: string): Promise<void> {
    ok(await this.post('/api/media/play_sound', { file }), 'play sound');
  }

  async stopSound(): Promise<void> {
    ok(await this.post('/api/media/stop_sound'), 'stop sound');
  }

  async setWobbling(on: boolean): Promise<void> {
    ok(await this.post(`/api/media/wobbling/${on ? 'enable' : 'disable'}`), 'wobbling');
  }

  async setTracking(enabled: boolean, weight?: number): Promise<{ status: string; enabled: boolean }> {
    const res = enabled
      ? await this.post('/api/media/tracking/enable', weight === undefined ? {} : { weight })
      : await this.post('/api/media/tracking/disable');
    const body = ok(res, 'tracking') as { status?: string; enabled?: boolean };
    return { status: String(body.status), enabled: body.enabled === true };
  }

  async face(): Promise<FaceTarget> {
    const body = ok(await this.http.request({ path: '/api/media/tracking/face' }), 'face') as {
      face_target?: FaceTarget;
    };
    return body.face_target ?? { detected: false, x: null, y: null, roll: null, ts: null };
  }

  async openApi(): Promise<unknown> {
    return ok(await this.http.request({ path: '/openapi.json', timeoutMs: SLOW_MS }), 'openapi');
  }

  async appLockStatus(): Promise<AppLockStatus> {
    const body = ok(await this.http.request({ path: '/api/daemon/robot-app-lock-status' }), 'app lock') as {
      state?: unknown;
      holder_name?: unknown;
    };
    const state = body?.state === 'local_app' || body?.state === 'remote_session' ? body.state : 'free';
    return { state, holder_name: typeof body?.holder_name === 'string' ? body.holder_name : null };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private post(path: string, body?: unknown, timeoutMs?: number): Promise<DaemonResponse> {
    return this.http.request({ method: 'POST', path, body, ...(timeoutMs ? { timeoutMs } : {}) });
  }
}

/** The daemon names a move by a UUID (Python's `uuid4()`); anything else is not its answer. */
export const MOVE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isMoveUuid(value: unknown): value is string {
  return typeof value === 'string' && MOVE_UUID.test(value);
}

/** The `uuid` member of an object, or undefined (any other body). */
function uuidMember(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { uuid?: unknown }).uuid : undefined;
}

function uuidOf(body: unknown): string {
  const uuid = uuidMember(body);
  if (!isMoveUuid(uuid)) throw new AppError('DAEMON_ERROR', 'daemon did not return a move uuid');
  return uuid;
}
