import { describe, expect, it } from 'vitest';
import { createAgentApi, readRow } from './agent-api.ts';
import type { HttpClient } from './http-client.ts';

const row = { id: 42, time: '2026-01-01T00:00:00Z', role: 'tool', persona: 'dashboard', text: 'look' };

function fakeHttp(data: unknown, seen: string[] = []): HttpClient {
  return {
    async request<T>(path: string) {
      seen.push(path);
      return { ok: true as const, status: 200, data: data as T };
    },
  };
}

describe('readRow', () => {
  it('accepts the documented row, tool and all', () => {
    const full = { ...row, tool: { name: 'look', input: { yaw: 30 }, result: { ok: true } } };
    expect(readRow(full)).toEqual(full);
  });

  it('refuses rows with an unknown role, a missing text or a nameless tool', () => {
    expect(readRow({ ...row, role: 'system' })).toBeNull();
    expect(readRow({ ...row, text: undefined })).toBeNull();
    expect(readRow({ ...row, tool: { input: {} } })).toBeNull();
    expect(readRow('row')).toBeNull();
  });
});

describe('createAgentApi', () => {
  it('asks the log for n rows and keeps only valid ones', async () => {
    const seen: string[] = [];
    const api = createAgentApi(fakeHttp({ rows: [row, { id: 'x' }], events: [] }, seen));
    const result = await api.log(100);
    expect(seen).toEqual(['/api/log?n=100']);
    expect(result.ok && result.data).toEqual([row]);
  });

  it('sends model tests through the slow client', async () => {
    const fast: string[] = [];
    const slow: string[] = [];
    const api = createAgentApi(fakeHttp({}, fast), fakeHttp({ ok: true, model: 'm', latencyMs: 5 }, slow));
    await api.test({ provider: 'openai', model: 'm' });
    expect(slow).toEqual(['/api/console/agent/test']);
    expect(fast).toEqual([]);
  });
});
