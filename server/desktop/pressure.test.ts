import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { countInTable, createPressureReader, findListenerPid, readPressure, softFdLimit } from './pressure.ts';

describe('pressure figures', () => {
  it('reads the soft descriptor limit', () => {
    const limits =
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            65536                524288               files\n';
    expect(softFdLimit(limits)).toBe(65536);
  });

  it('counts only our CLOSE-WAIT sockets towards the daemon port', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:A1B2 0100007F:1F40 08 00000000:00000000 00:00000000 00000000     0        0 111 1',
      '   1: 0100007F:A1B3 0100007F:1F40 08 00000000:00000000 00:00000000 00000000     0        0 222 1',
      '   2: 0100007F:A1B4 0100007F:1F40 01 00000000:00000000 00:00000000 00000000     0        0 333 1',
      '   3: 0100007F:A1B5 0100007F:1F41 08 00000000:00000000 00:00000000 00000000     0        0 444 1',
    ].join('\n');
    expect(countInTable(table, 8000, new Set(['111', '333', '444']))).toBe(1);
  });

  it('reads real figures for this process on Linux', () => {
    const p = readPressure(8000);
    if (process.platform !== 'linux') return;
    expect(p.fds).toBeGreaterThan(2);
    expect(p.fd_limit).toBeGreaterThan(p.fds);
    expect(p.warning).toBe(false);
  });
});

describe('the daemon process as the source of pressure', () => {
  it('counts the server side of CLOSE-WAIT by the local port', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F40 0100007F:A1B2 08 00000000:00000000 00:00000000 00000000     0        0 111 1',
      '   1: 0100007F:A1B2 0100007F:1F40 08 00000000:00000000 00:00000000 00000000     0        0 222 1',
    ].join('\n');
    expect(countInTable(table, 8000, new Set(['111', '222']), 'local')).toBe(1);
    expect(countInTable(table, 8000, new Set(['111', '222']), 'remote')).toBe(1);
  });

  it('finds the process listening on a port, and reads its figures', async () => {
    if (process.platform !== 'linux') return;
    const child = spawn(
      process.execPath,
      ['-e', "require('net').createServer().listen(0, '127.0.0.1', function () { console.log(this.address().port) })"],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const port = await new Promise<number>((resolve) =>
        child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
      );
      expect(findListenerPid(port)).toBe(child.pid);
      const p = readPressure(port, child.pid);
      expect(p).toMatchObject({
        source: 'daemon',
        pid: child.pid,
        close_wait: 0,
        cockpit_close_wait: 0,
        warning: false,
      });
      expect(p.fds).toBeGreaterThan(2);
      // A port nobody listens on, or one this process owns, gives no daemon process.
      const own = createServer().listen(0, '127.0.0.1');
      await new Promise((r) => own.once('listening', r));
      expect(findListenerPid((own.address() as AddressInfo).port)).toBeNull();
      own.close();
      expect(readPressure(port, 2 ** 22 + 7)).toMatchObject({ source: 'cockpit', pid: process.pid });
    } finally {
      child.kill();
    }
  });
});

describe('the pressure reader', () => {
  it('counts CLOSE-WAIT again only once its interval has passed', async () => {
    if (process.platform !== 'linux') return;
    // A "daemon" that hangs up on every connection: our half-open client socket stays in CLOSE-WAIT.
    const daemon = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
    const port = (daemon.address() as AddressInfo).port;
    let now = 0;
    const read = createPressureReader(port, { closeWaitEveryMs: 5000, now: () => now });
    expect(read()).toMatchObject({ source: 'cockpit', cockpit_close_wait: 0 });
    const client = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      await new Promise((resolve) => client.once('end', resolve));
      now = 4999;
      expect(read().cockpit_close_wait).toBe(0);
      now = 5000;
      expect(read()).toMatchObject({ close_wait: 1, cockpit_close_wait: 1 });
    } finally {
      client.destroy();
      daemon.close();
    }
  });

  it('counts again once the descriptors moved, long before the longest age', async () => {
    if (process.platform !== 'linux') return;
    const daemon = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
    const port = (daemon.address() as AddressInfo).port;
    let now = 0;
    const read = createPressureReader(port, { closeWaitEveryMs: 5000, closeWaitMaxAgeMs: 3_600_000, now: () => now });
    const first = read();
    expect(first.cockpit_close_wait).toBe(0);
    const clients = Array.from({ length: 5 }, () => connect({ port, host: '127.0.0.1', allowHalfOpen: true }));
    try {
      await Promise.all(clients.map((c) => new Promise((resolve) => c.once('end', resolve))));
      // Five more descriptors and past the soonest recount: the tables are read again.
      now = 5000;
      expect(read()).toMatchObject({ close_wait: 5, cockpit_close_wait: 5 });
    } finally {
      for (const c of clients) c.destroy();
      daemon.close();
    }
  });
});
