/**
 * The control routes of the desktop server (server/motion/README-control.md), in human units: degrees,
 * millimetres, seconds. The browser adds the same-origin `Origin` header to every POST itself,
 * which a passkey session needs for control routes.
 */
import type {
  ClampNote,
  EventFrame,
  LookInput,
  MotorMode,
  MoveLibrary,
  ReelStatus,
  StopResult,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

export interface MoveAnswer {
  uuid?: string;
  clamped?: Record<string, ClampNote>;
}

export interface ControlApi {
  look(body: LookInput): Promise<ApiResult<MoveAnswer>>;
  antennas(right: number, left: number): Promise<ApiResult<MoveAnswer>>;
  home(): Promise<ApiResult<MoveAnswer>>;
  express(name: string): Promise<ApiResult<MoveAnswer>>;
  wake(): Promise<ApiResult<MoveAnswer>>;
  sleep(): Promise<ApiResult<MoveAnswer>>;
  motors(mode: MotorMode): Promise<ApiResult<{ mode: MotorMode }>>;
  volume(level: number): Promise<ApiResult<{ level: number }>>;
  demo(on: boolean): Promise<ApiResult<{ on: boolean }>>;
  reel(action: 'start' | 'abort'): Promise<ApiResult<ReelStatus>>;
  say(text: string): Promise<ApiResult<{ seconds: number }>>;
  stop(): Promise<ApiResult<StopResult>>;
  resume(): Promise<ApiResult<{ latched: false }>>;
  moves(): Promise<ApiResult<MoveLibrary>>;
  /** The latest event receipts (GET /api/log), oldest first, to fill the feed on opening. */
  recentEvents(limit: number): Promise<ApiResult<EventFrame[]>>;
}

export function createControlApi(http: HttpClient): ControlApi {
  const post = <T>(path: string, body?: unknown) =>
    http.request<T>(path, body === undefined ? { method: 'POST' } : { method: 'POST', body });
  return {
    look: (body) => post('/api/control/look', body),
    antennas: (right, left) => post('/api/control/antennas', { right, left }),
    home: () => post('/api/control/home'),
    express: (name) => post('/api/control/express', { name }),
    wake: () => post('/api/control/wake'),
    sleep: () => post('/api/control/sleep'),
    motors: (mode) => post('/api/control/motors', { mode }),
    volume: (level) => post('/api/control/volume', { level }),
    demo: (on) => post('/api/control/demo', { on }),
    reel: (action) => post('/api/control/reel', { action }),
    say: (text) => post('/api/control/say', { text }),
    stop: () => post('/api/control/stop'),
    resume: () => post('/api/console/resume'),
    moves: () => http.request<MoveLibrary>('/api/emotions'),
    async recentEvents(limit) {
      const result = await http.request<{ events?: EventFrame[] }>(`/api/log?n=${limit}`);
      return result.ok ? { ...result, data: result.data.events ?? [] } : result;
    },
  };
}
