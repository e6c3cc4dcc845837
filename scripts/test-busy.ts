/**
 * `npm run test:busy`: the whole `npm test` while a background load keeps every core busy, to
 * prove the suite does not depend on a quiet machine. The load is `stress-ng --cpu <cores>`
 * (Debian package stress-ng) when installed, else one bounded Node busy loop per core. Both are
 * bounded in time as well, so a killed runner never leaves them spinning.
 *
 *   npm run test:busy                   one run of npm test under load
 *   npm run test:busy -- --runs 5       five in a row, stopping at the first failure
 *   npm run test:busy -- -- npx vitest run server/motion    another command under the same load
 *
 * Prints each run's duration and exits non-zero when a run failed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The longest the load may run, whatever happens to this process. */
const LOAD_LIMIT_S = 4 * 60 * 60;

interface Options {
  runs: number;
  command: string[];
}

function parseArgs(argv: string[]): Options {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? ['npm', 'test'] : argv.slice(split + 1);
  const runsAt = own.indexOf('--runs');
  const runs = runsAt === -1 ? 1 : Number(own[runsAt + 1]);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1');
  if (command.length === 0) throw new Error('nothing to run after --');
  return { runs, command };
}

interface Load {
  kind: string;
  stop(): Promise<void>;
}

function hasStressNg(): boolean {
  return spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
}

function startStressNg(cores: number): Load {
  const child: ChildProcess = spawn('stress-ng', ['--cpu', String(cores), '--timeout', `${LOAD_LIMIT_S}s`, '--quiet'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    kind: `stress-ng --cpu ${cores}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The fallback: a worker per core spinning until told to stop or until its own deadline. */
function startBusyLoops(cores: number): Load {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    let stop = false;
    parentPort.on('message', () => { stop = true; });
    const spin = () => {
      const sliceEnd = Date.now() + 50;
      while (Date.now() < sliceEnd) Math.sqrt(Math.random());
      if (!stop && Date.now() < workerData.until) setImmediate(spin);
      else process.exit(0);
    };
    spin();`;
  const until = Date.now() + LOAD_LIMIT_S * 1000;
  const workers = Array.from({ length: cores }, () => new Worker(source, { eval: true, workerData: { until } }));
  return {
    kind: `${cores} Node busy loops (stress-ng not installed)`,
    async stop() {
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.postMessage('stop');
            }),
        ),
      );
    },
  };
}

function run(command: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0] as string, command.slice(1), { stdio: 'inherit' });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const cores = availableParallelism();
  const load = hasStressNg() ? startStressNg(cores) : startBusyLoops(cores);
  const stopLoad = () => void load.stop();
  process.once('SIGINT', stopLoad);
  process.once('SIGTERM', stopLoad);
  console.log(`test:busy: ${options.command.join(' ')} × ${options.runs} under ${load.kind}`);
  const results: { ms: number; code: number }[] = [];
  try {
    for (let i = 1; i <= options.runs; i += 1) {
      const start = performance.now();
      const code = await run(options.command);
      results.push({ ms: performance.now() - start, code });
      console.log(
        `test:busy: run ${i}/${options.runs} ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes(results.at(-1)?.ms ?? 0)}`,
      );
      if (code !== 0) break;
    }
  } finally {
    await load.stop();
  }
  console.log('test:busy: summary');
  results.forEach((r, i) => console.log(`  run ${i + 1}: ${r.code === 0 ? 'passed' : 'failed'}  ${minutes(r.ms)}`));
  const passed = results.length === options.runs && results.every((r) => r.code === 0);
  return passed ? 0 : 1;
}

process.exitCode = await main();
