import { describe, expect, it } from 'vitest';
import {
  capabilitiesFrom,
  compareReleases,
  releaseOf,
  UNKNOWN_CAPABILITIES,
  versionReport,
  WANTED_ROUTES,
} from './capabilities.ts';

const doc = (paths: Record<string, string[]>) => ({
  openapi: '3.1.0',
  paths: Object.fromEntries(Object.entries(paths).map(([p, ms]) => [p, Object.fromEntries(ms.map((m) => [m, {}]))])),
});

const everyWanted = () => {
  const paths: Record<string, string[]> = {};
  for (const r of WANTED_ROUTES) (paths[r.path] ??= []).push(r.method.toLowerCase());
  return paths;
};

describe('capability map', () => {
  it('answers from the OpenAPI route list, method and path exactly', () => {
    const caps = capabilitiesFrom('1.13.0', doc({ '/api/apps/start-app/{app_name}/no-evict': ['post'], '/api/apps/startup-app': ['get', 'put'] }));
    expect(caps.known).toBe(true);
    expect(caps.has('POST', '/api/apps/start-app/{app_name}/no-evict')).toBe(true);
    expect(caps.has('GET', '/api/apps/start-app/{app_name}/no-evict')).toBe(false);
    expect(caps.has('PUT', '/api/apps/startup-app')).toBe(true);
    expect(caps.has('POST', '/api/apps/start-app/{app_name}')).toBe(false);
    expect(caps.routes()).toEqual([
      'GET /api/apps/startup-app',
      'POST /api/apps/start-app/{app_name}/no-evict',
      'PUT /api/apps/startup-app',
    ]);
  });

  it('is unknown (every has false) without a paths object', () => {
    for (const bad of [null, 'Not Found', { detail: 'Not Found' }, { paths: 3 }]) {
      const caps = capabilitiesFrom('1.10.0', bad);
      expect(caps.known).toBe(false);
      expect(caps.version).toBe('1.10.0');
      expect(caps.has('GET', '/api/state/full')).toBe(false);
    }
    expect(UNKNOWN_CAPABILITIES.routes()).toEqual([]);
  });
});

describe('version report', () => {
  it('reads release numbers, ignoring pre-release and dev suffixes', () => {
    expect(releaseOf('1.10.0.dev0')).toEqual([1, 10, 0]);
    expect(releaseOf('1.13.0rc1')).toEqual([1, 13, 0]);
    expect(releaseOf('1.9')).toEqual([1, 9, 0]);
    expect(releaseOf('unknown')).toBeNull();
    expect(compareReleases([1, 10, 0], [1, 9, 9])).toBeGreaterThan(0);
  });

  it('in range: no warning, nothing missing when every wanted route is listed', () => {
    const report = versionReport(capabilitiesFrom('1.13.0', doc(everyWanted())), { min: '1.10.0', max: '1.13.0' });
    expect(report).toEqual({
      version: '1.13.0',
      tested: { min: '1.10.0', max: '1.13.0' },
      inRange: true,
      warning: null,
      missing: [],
    });
    expect(versionReport(capabilitiesFrom('1.10.0.dev0', doc(everyWanted())), { min: '1.10.0', max: '1.13.0' }).inRange).toBe(true);
  });

  it('outside the range: a clear warning, and the wanted routes the daemon lacks', () => {
    const paths = everyWanted();
    delete paths['/api/apps/start-app/{app_name}/no-evict'];
    const report = versionReport(capabilitiesFrom('1.14.2', doc(paths)), { min: '1.10.0', max: '1.13.0' });
    expect(report.inRange).toBe(false);
    expect(report.warning).toMatch(/1\.14\.2 is outside the tested range 1\.10\.0 to 1\.13\.0/);
    expect(report.missing).toEqual(['POST /api/apps/start-app/{app_name}/no-evict (starting an app without evicting a remote session)']);
    expect(versionReport(capabilitiesFrom('1.9.0', doc(everyWanted())), { min: '1.10.0', max: '1.13.0' }).inRange).toBe(false);
  });

  it('unknown version: no verdict; unknown routes: nothing claimed missing', () => {
    expect(versionReport(UNKNOWN_CAPABILITIES)).toMatchObject({ version: null, inRange: null, warning: null, missing: [] });
  });
});
