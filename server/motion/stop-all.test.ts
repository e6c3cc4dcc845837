import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { stopAllMoves } from './stop-all.ts';
import { until } from './testing/rig.ts';

const KNOWN = '0b6c1f3e-7a52-4c1e-9d0a-2f4b8e6a1c3d';
const LISTED = '5e2d9a41-3b7c-4f80-a6e1-9c0d2b4f7e85';

function held<T>(): { promise: Promise<T>; resolve(value: T): void; reject(err: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('stopping every move', () => {
  it('stops the moves it knows while the list is read: a daemon that does not answer costs one timeout, not two', async () => {
    const list = held<string[]>();
    const stops: string[] = [];
    const daemon = {
      runningMoves: () => list.promise,
      stopMove: async (uuid: string) => void stops.push(uuid),
    };
    const report = stopAllMoves(daemon, () => [KNOWN]);
    await until(() => stops.length === 1);
    expect(stops).toEqual([KNOWN]);
    list.reject(new AppError('DAEMON_TIMEOUT', 'daemon did not answer GET /api/move/running within 2000 ms'));
    expect(await report).toEqual({
      stopped: [KNOWN],
      error: 'daemon did not answer GET /api/move/running within 2000 ms',
    });
  });

  it('then stops what the list adds, once each', async () => {
    const stops: string[] = [];
    let lists = 0;
    const daemon = {
      runningMoves: async () => (lists++ === 0 ? [KNOWN, LISTED] : []),
      stopMove: async (uuid: string) => void stops.push(uuid),
    };
    expect(await stopAllMoves(daemon, () => [KNOWN])).toEqual({ stopped: [KNOWN, LISTED] });
    expect(stops).toEqual([KNOWN, LISTED]);
  });
});
