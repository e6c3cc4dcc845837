/**
 * The cockpit's health history (GET /api/console/health/history and `health_sample` frames on
 * /ws, server/diagnostics/health-history.ts), read at the edge: a sample missing a figure the
 * plots need is dropped rather than drawn wrong.
 */
import type { HealthSample, ServerFrame } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

/** What the plots read of a sample. */
export type HealthPoint = Pick<HealthSample, 't' | 'streamHz' | 'loopHz' | 'cameraFps' | 'control' | 'cpuPercent'>;

export interface HealthHistory {
  everyMs: number;
  windowMs: number;
  points: HealthPoint[];
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const isNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u);
const isNumberOrNull = (u: unknown): u is number | null => u === null || isNumber(u);

export function readHealthPoint(u: unknown): HealthPoint | null {
  if (!isRecord(u)) return null;
  const { t, streamHz, loopHz, cameraFps, control, cpuPercent } = u;
  if (!isNumber(t) || !isNumber(streamHz) || !isNumberOrNull(loopHz) || !isNumber(cameraFps) || !isNumber(cpuPercent)) {
    return null;
  }
  if (
    !isRecord(control) ||
    !isNumber(control.count) ||
    !isNumberOrNull(control.p50Ms) ||
    !isNumberOrNull(control.maxMs)
  ) {
    return null;
  }
  return {
    t,
    streamHz,
    loopHz,
    cameraFps,
    cpuPercent,
    control: { count: control.count, p50Ms: control.p50Ms, maxMs: control.maxMs },
  };
}

export function readHealthHistory(u: unknown): HealthHistory | null {
  if (!isRecord(u) || !isNumber(u.everyMs) || !isNumber(u.windowMs) || !Array.isArray(u.samples)) return null;
  const points = u.samples.map(readHealthPoint).filter((p): p is HealthPoint => p !== null);
  return { everyMs: u.everyMs, windowMs: u.windowMs, points };
}

/** The sample of a `health_sample` frame, or null for any other frame. */
export function readHealthFrame(frame: ServerFrame): HealthPoint | null {
  return frame.type === 'health_sample' ? readHealthPoint((frame as { sample?: unknown }).sample) : null;
}

export async function fetchHealthHistory(http: HttpClient): Promise<ApiResult<HealthHistory>> {
  const result = await http.request<unknown>('/api/console/health/history');
  if (!result.ok) return result;
  const history = readHealthHistory(result.data);
  return history
    ? { ...result, data: history }
    : {
        ok: false,
        status: 200,
        code: 'BAD_RESPONSE',
        message: 'The cockpit sent its health history in a shape this dashboard does not know.',
      };
}
