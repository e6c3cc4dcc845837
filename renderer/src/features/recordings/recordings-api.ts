/**
 * The black box routes of the desktop server (server/desktop/routes/recording-routes.ts) as the recordings
 * card calls them. JSON goes through the session's HTTP client; the `.mcap` download and the
 * replay's frames are fetched as blobs with the same credential (a plain link or <img> could not
 * carry the bearer).
 */
import type {
  KeptRecording,
  RecorderStatus,
  RecordingsView,
  ReplaySummary,
} from '../../../../server/contract/recordings.ts';
import { failureFromBody, networkFailure, type ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

export interface RecordingsApi {
  list(): Promise<ApiResult<RecordingsView>>;
  save(minutes: number): Promise<ApiResult<KeptRecording>>;
  rename(id: string, name: string): Promise<ApiResult<KeptRecording>>;
  remove(id: string): Promise<ApiResult<{ deleted: string }>>;
  setCamera(on: boolean): Promise<ApiResult<RecorderStatus>>;
  replay(id: string): Promise<ApiResult<ReplaySummary>>;
  /** The frame shown at `t` ms into a recording. */
  frame(id: string, t: number): Promise<ApiResult<Blob>>;
  /** The whole `.mcap` file. */
  file(id: string): Promise<ApiResult<Blob>>;
}

export interface BlobFetchOptions {
  getToken: () => string | null;
  fetch?: typeof fetch;
}

const path = (id: string) => `/api/console/recordings/${encodeURIComponent(id)}`;

export function createRecordingsApi(http: HttpClient, options: BlobFetchOptions): RecordingsApi {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const blob = async (url: string): Promise<ApiResult<Blob>> => {
    const token = options.getToken();
    try {
      const response = await doFetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        credentials: 'same-origin',
      });
      if (!response.ok) return failureFromBody(response.status, await response.json().catch(() => null));
      return { ok: true, status: response.status, data: await response.blob() };
    } catch {
      return networkFailure(false);
    }
  };
  return {
    list: () => http.request<RecordingsView>('/api/console/recordings'),
    save: (minutes) => http.request<KeptRecording>('/api/console/recordings', { method: 'POST', body: { minutes } }),
    rename: (id, name) => http.request<KeptRecording>(path(id), { method: 'PUT', body: { name } }),
    remove: (id) => http.request<{ deleted: string }>(path(id), { method: 'DELETE' }),
    setCamera: (on) => http.request<RecorderStatus>('/api/console/recorder', { method: 'PUT', body: { camera: on } }),
    replay: (id) => http.request<ReplaySummary>(`${path(id)}/replay`),
    frame: (id, t) => blob(`${path(id)}/frame?t=${Math.max(0, Math.round(t))}`),
    file: (id) => blob(`${path(id)}/file`),
  };
}
