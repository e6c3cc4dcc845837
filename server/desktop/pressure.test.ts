import { describe, expect, it } from 'vitest';
import { countInTable, readPressure, softFdLimit } from './pressure.ts';

describe('pressure figures', () => {
  it('reads the soft descriptor limit', () => {
    const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            65536                524288               files\n';
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
