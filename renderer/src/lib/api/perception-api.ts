/**
 * Face tracking and turn-toward-speaker (server/perception/README-perception.md): the status
 * shapes as the dashboard reads them, checked at the edge because the state frame types
 * `tracking` as unknown, and the calls of the perception card. None of these is a control route.
 */
import type { DoaStatus, HoldAnswer, LiveHold, TrackingStatus } from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

// The shapes are the contract's (server/contract/perception.ts); the card takes them from here with the calls.
export type { DoaStatus, HoldAnswer, LiveHold, TrackingStatus };

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const num = (u: unknown): number | null => (typeof u === 'number' && Number.isFinite(u) ? u : null);
const text = (u: unknown): string | null => (typeof u === 'string' ? u : null);

function readHolds(u: unknown): LiveHold[] {
  if (!Array.isArray(u)) return [];
  return u.flatMap((h) => {
    if (!isRecord(h) || typeof h.name !== 'string') return [];
    return [{ name: h.name, remaining: Math.max(0, num(h.remaining) ?? 0) }];
  });
}

/** The tracking status of GET /api/tracking, a `tracking` frame or `state.tracking`; null if it is none. */
export function readTracking(u: unknown): TrackingStatus | null {
  if (!isRecord(u) || typeof u.enabled !== 'boolean') return null;
  return {
    enabled: u.enabled,
    detected: u.detected === true,
    x: num(u.x),
    y: num(u.y),
    holds: readHolds(u.holds),
    paused: u.paused === true,
    engine: text(u.engine) ?? '',
    weight: num(u.weight),
    error: text(u.error),
    reenabled: num(u.reenabled) ?? 0,
  };
}

/** The last turn toward a speaker; null when absent or unreadable. */
function readLastTurn(u: unknown): DoaStatus['lastTurn'] {
  if (!isRecord(u) || typeof u.at !== 'string' || !isRecord(u.plan)) return null;
  const [bearing, headYaw, pitch] = [num(u.bearing), num(u.plan.headYaw), num(u.plan.pitch)];
  if (bearing === null || headYaw === null || pitch === null) return null;
  return { at: u.at, bearing, plan: { headYaw, bodyYaw: num(u.plan.bodyYaw), pitch } };
}

/** The DoA status of GET /api/doa or a `doa` frame; null if it is none. */
export function readDoa(u: unknown): DoaStatus | null {
  if (!isRecord(u) || typeof u.enabled !== 'boolean') return null;
  const sign = isRecord(u.sign) ? u.sign : {};
  return {
    enabled: u.enabled,
    bearing: num(u.bearing),
    speech: u.speech === true,
    why: text(u.why),
    turns: num(u.turns) ?? 0,
    windupRefusals: num(u.windupRefusals) ?? 0,
    sign: { agree: num(sign.agree) ?? 0, disagree: num(sign.disagree) ?? 0 },
    lastTurn: readLastTurn(u.lastTurn),
    error: text(u.error),
  };
}

export interface PerceptionApi {
  tracking(): Promise<ApiResult<TrackingStatus | null>>;
  setTracking(enabled: boolean): Promise<ApiResult<TrackingStatus | null>>;
  hold(name: string, on: boolean, ttl?: number): Promise<ApiResult<HoldAnswer>>;
  doa(): Promise<ApiResult<DoaStatus | null>>;
  setDoa(enabled: boolean): Promise<ApiResult<DoaStatus | null>>;
}

async function mapped<T, U>(call: Promise<ApiResult<T>>, map: (data: T) => U): Promise<ApiResult<U>> {
  const result = await call;
  return result.ok ? { ...result, data: map(result.data) } : result;
}

export function createPerceptionApi(http: HttpClient): PerceptionApi {
  const post = (path: string, body: unknown) => http.request<unknown>(path, { method: 'POST', body });
  return {
    tracking: () => mapped(http.request<unknown>('/api/tracking'), readTracking),
    setTracking: (enabled) => mapped(post('/api/tracking', { enabled }), readTracking),
    hold: (name, on, ttl) =>
      http.request<HoldAnswer>('/api/tracking/hold', {
        method: 'POST',
        body: ttl === undefined ? { name, on } : { name, on, ttl },
      }),
    doa: () => mapped(http.request<unknown>('/api/doa'), readDoa),
    setDoa: (enabled) => mapped(post('/api/doa', { enabled }), readDoa),
  };
}
