/** The dashboard shell names the robot kind in the page it serves, and follows a new build. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellHandler } from './static-shell.ts';

const root = mkdtempSync(join(tmpdir(), 'shell-'));
const servers: Server[] = [];
const urls: Record<'desktop' | 'wheeled', string> = { desktop: '', wheeled: '' };

function build(title: string, mtime: number): void {
  writeFileSync(
    join(root, 'index.html'),
    `<!doctype html><html><head><title>${title}</title></head><body></body></html>`,
  );
  utimesSync(join(root, 'index.html'), mtime, mtime);
}

beforeAll(async () => {
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'app-1.js'), 'export {}');
  build('first', 1_000_000);
  for (const kind of ['desktop', 'wheeled'] as const) {
    const koa = new Koa();
    const shell = createShellHandler({ root, robotKind: kind });
    koa.use((ctx) => shell(ctx));
    const server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    servers.push(server);
    urls[kind] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

describe('the dashboard shell', () => {
  it('names the robot kind in the head of the page, at / and on any page path, never cached', async () => {
    for (const kind of ['desktop', 'wheeled'] as const) {
      for (const path of ['/', '/index.html', '/settings']) {
        const res = await fetch(`${urls[kind]}${path}`);
        const html = await res.text();
        expect(res.headers.get('cache-control'), path).toBe('no-cache');
        expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
        expect(html, `${kind} ${path}`).toContain(`<meta name="robot-kind" content="${kind}"></head>`);
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(html));
      }
    }
  });

  it('serves a new build at once, and assets untouched', async () => {
    build('second', 2_000_000);
    expect(await (await fetch(`${urls.desktop}/`)).text()).toContain('<title>second</title><meta name="robot-kind"');
    const asset = await fetch(`${urls.desktop}/assets/app-1.js`);
    expect(await asset.text()).toBe('export {}');
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
  });
});
