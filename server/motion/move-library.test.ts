/** The move library: each dataset listed on its own, cached once listed, a failed one retried. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DANCES_DATASET, EMOTIONS_DATASET, HttpDaemonClient } from '../daemon/daemon-client.ts';
import { AppError } from '../errors.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { createMoveLibraryCache } from './move-library.ts';

/** What the daemon answers for a dataset absent from its hub cache (the simulator's copy: server/sim/routes-move.ts). */
const absent = (dataset: string) =>
  new AppError(
    'DAEMON_ERROR',
    `daemon refused move list (404): Repository Not Found for url: https://huggingface.co/api/datasets/${dataset}/revision/main.`,
  );

/** A daemon whose listings answer, per dataset, the next of `answers`; it records what was asked. */
function fakeDaemon(answers: Record<string, (string[] | Error)[]>) {
  const asked: string[] = [];
  return {
    asked,
    async listMoves(dataset: string): Promise<string[]> {
      asked.push(dataset);
      const answer = answers[dataset]?.shift();
      if (answer === undefined) throw new Error(`no answer left for ${dataset}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('move library', () => {
  it('lists and finds the moves of the datasets that listed when another fails, and says which failed and why', async () => {
    const daemon = fakeDaemon({
      [EMOTIONS_DATASET]: [['cheerful1', 'yes1']],
      [DANCES_DATASET]: [absent(DANCES_DATASET)],
    });
    const library = createMoveLibraryCache(daemon);

    const listed = await library.get();
    expect(listed.moves.map((m) => m.name)).toEqual(['cheerful1', 'yes1']);
    expect(listed.families).toEqual({ joy: ['cheerful1'], answers: ['yes1'] });
    expect(library.missing()).toEqual([{ dataset: DANCES_DATASET, error: absent(DANCES_DATASET) }]);
    expect(library.missing()[0]?.error).toMatchObject({ code: 'DAEMON_ERROR', kind: 'upstream' });
    // The answer of GET /api/emotions says so too: the dashboard shows the library is partial.
    expect(listed.missing).toEqual([
      { dataset: DANCES_DATASET, code: 'DAEMON_ERROR', error: absent(DANCES_DATASET).message },
    ]);
  });

  it('finds a listed move while a dataset is missing, and an unlisted name names the missing dataset', async () => {
    const daemon = fakeDaemon({
      [EMOTIONS_DATASET]: [['cheerful1']],
      [DANCES_DATASET]: [absent(DANCES_DATASET), absent(DANCES_DATASET)],
    });
    const library = createMoveLibraryCache(daemon);

    await expect(library.find('cheerful1')).resolves.toMatchObject({ name: 'cheerful1', dataset: EMOTIONS_DATASET });
    const unknown = library.find('dance1');
    await expect(unknown).rejects.toMatchObject({ code: 'MOVE_UNKNOWN' });
    await expect(unknown).rejects.toThrow(`not listed: ${DANCES_DATASET} (daemon refused move list (404)`);
  });

  it('retries only the failed dataset on the next call, and forgets the failure once it lists', async () => {
    const daemon = fakeDaemon({
      [EMOTIONS_DATASET]: [['cheerful1']],
      [DANCES_DATASET]: [absent(DANCES_DATASET), ['dance1']],
    });
    const library = createMoveLibraryCache(daemon);

    await library.get();
    await expect(library.find('dance1')).resolves.toMatchObject({ dataset: DANCES_DATASET, family: 'dance' });
    expect(library.missing()).toEqual([]);
    expect((await library.get()).missing).toBeUndefined();
    expect(daemon.asked).toEqual([EMOTIONS_DATASET, DANCES_DATASET, DANCES_DATASET]);
  });

  it('fails as a whole with the daemon error when no dataset lists, and asks again next time', async () => {
    const refused = absent(EMOTIONS_DATASET);
    const daemon = fakeDaemon({
      [EMOTIONS_DATASET]: [refused, ['cheerful1']],
      [DANCES_DATASET]: [absent(DANCES_DATASET), ['dance1']],
    });
    const library = createMoveLibraryCache(daemon);

    await expect(library.get()).rejects.toBe(refused);
    expect(library.missing().map((m) => m.dataset)).toEqual([EMOTIONS_DATASET, DANCES_DATASET]);
    expect((await library.get()).moves.map((m) => m.name)).toEqual(['cheerful1', 'dance1']);
  });

  it('shares one listing per dataset between concurrent callers', async () => {
    const daemon = fakeDaemon({ [EMOTIONS_DATASET]: [['yes1']], [DANCES_DATASET]: [['dance1']] });
    const library = createMoveLibraryCache(daemon);

    await Promise.all([library.get(), library.find('yes1'), library.get()]);
    expect(daemon.asked).toEqual([EMOTIONS_DATASET, DANCES_DATASET]);
  });

  it('reports a failure that is not an app error as a daemon error', async () => {
    const daemon = fakeDaemon({ [EMOTIONS_DATASET]: [['yes1']], [DANCES_DATASET]: [new TypeError('socket hang up')] });
    const library = createMoveLibraryCache(daemon);

    await library.get();
    expect(library.missing()[0]?.error).toMatchObject({ code: 'DAEMON_ERROR', message: 'socket hang up' });
  });
});

describe('move library against the simulator', () => {
  let sim: SimDaemon;
  let http: HttpDaemonClient;
  beforeAll(async () => {
    sim = await startSimDaemon();
    http = new HttpDaemonClient({ baseUrl: sim.url });
  });
  afterAll(async () => {
    await http.close();
    await sim.close();
  });

  it('plays from the emotions while the dances are absent from the hub cache', async () => {
    // The dances are asked for under a name the daemon does not hold, as after a failed preload.
    const daemon = {
      listMoves: (dataset: string) =>
        http.listMoves(dataset === DANCES_DATASET ? 'pollen-robotics/absent-library' : dataset),
    };
    const library = createMoveLibraryCache(daemon);

    await expect(library.find('cheerful1')).resolves.toMatchObject({ dataset: EMOTIONS_DATASET });
    expect((await library.get()).moves.every((m) => m.dataset === EMOTIONS_DATASET)).toBe(true);
    const [missing] = library.missing();
    expect(missing?.dataset).toBe(DANCES_DATASET);
    expect(missing?.error).toMatchObject({ code: 'DAEMON_ERROR' });
    expect(missing?.error.message).toMatch(/daemon refused move list \(404\): Repository Not Found/);
  });
});
