/**
 * `npm run bench`: starts the simulated daemon and the cockpit on loopback and measures state
 * fan-out, camera fan-out, the control path, throughput, the dashboard and the black box
 * recorder (CPU, disk bytes per minute, control path with it on and off); prints the report
 * and writes bench/RESULTS.md. BENCH_QUICK=1 shortens every phase (a smoke run, not figures).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureCameraFanout, warmCamera } from './camera-fanout.ts';
import { measureControlPath } from './control-path.ts';
import { measureDashboard } from './dashboard.ts';
import { ROOT, startStack } from './processes.ts';
import { measureRecorder } from './recorder.ts';
import { RECORDER_HEADING, renderRecorderSection, renderReport, type Results } from './report.ts';
import { measureSlowClients } from './slow-clients.ts';
import { measureStateFanout } from './state-fanout.ts';
import { measureThroughput } from './throughput.ts';

const quick = process.env['BENCH_QUICK'] === '1';
/** BENCH_ONLY=recorder: only the recorder phase; RESULTS.md gets its recorder section replaced. */
const only = process.env['BENCH_ONLY'];
const stateSeconds = quick ? 3 : 20;
const phaseSeconds = quick ? 3 : 10;
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Written by hand below this line of RESULTS.md (profiles, before/after); a run keeps it. */
const NOTES_MARK = '<!-- notes: written by hand, kept by npm run bench -->';

/** Replaces the section starting at `heading` (up to the next `## ` heading or the notes) in RESULTS.md; adds it before the notes when absent. */
function writeSection(heading: string, section: string): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const notes = old.indexOf(NOTES_MARK);
  const start = old.indexOf(heading);
  let from = start;
  let to = start;
  if (start >= 0) {
    const next = old.indexOf('\n## ', start + heading.length);
    const ends = [next, notes].filter((i) => i > start);
    to = ends.length > 0 ? Math.min(...ends) : old.length;
  } else from = to = notes >= 0 ? notes : old.length;
  const rest = old.slice(to).trimStart();
  writeFileSync(file, `${old.slice(0, from).trimEnd()}\n\n${section.trimEnd()}\n${rest ? `\n${rest}` : ''}`);
}

async function recorderOnly(): Promise<void> {
  say('bench: black box recorder on and off');
  const recorder = await measureRecorder(phaseSeconds, quick ? 50 : 300);
  const section = renderRecorderSection(recorder, true).join('\n');
  say(`\n${section}`);
  if (!quick) writeSection(RECORDER_HEADING, section);
}

function writeResults(report: string): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = old.indexOf(NOTES_MARK);
  writeFileSync(file, at < 0 ? report : `${report.trimEnd()}\n\n${old.slice(at)}`);
}

async function main(): Promise<void> {
  if (only === 'recorder') return recorderOnly();
  if (only) throw new Error(`BENCH_ONLY=${only}: the phases that run alone are: recorder`);
  // Control requests come faster than an operator's: lift the per-client rate limit for the run.
  const stack = await startStack({ ROBOT_RATE_LIMIT: '1000' });
  try {
    const state = [];
    for (const viewers of [1, 50, 200, 500]) {
      say(`bench: state fan-out, ${viewers} viewers, ${stateSeconds} s`);
      state.push(await measureStateFanout(stack, viewers, stateSeconds));
    }
    // Throughput before the camera phase: afterwards the camera keeps decoding for 30 s after its
    // last viewer (the idle stop), which would load this 2-core machine during the measurement.
    say('bench: throughput');
    const throughput = await measureThroughput(stack, phaseSeconds);
    say('bench: control path');
    const control = await measureControlPath(stack, quick ? 50 : 300);
    say('bench: slow clients');
    const slowClients = await measureSlowClients(stack, quick ? 50 : 300);
    say('bench: camera fan-out');
    await warmCamera(stack);
    const camera = [];
    for (const viewers of [1, 10, 50]) camera.push(await measureCameraFanout(stack, viewers, phaseSeconds));
    say('bench: dashboard');
    const dashboard = await measureDashboard(stack, quick ? 2 : 5);
    await stack.stop();
    // The recorder on and off, each in a cockpit of its own started after this one has stopped.
    say('bench: black box recorder on and off');
    const recorder = await measureRecorder(phaseSeconds, quick ? 50 : 300);
    const results: Results = { state, camera, control, throughput, dashboard, slowClients, recorder };
    const report = renderReport(results);
    say(`\n${report}`);
    if (!quick) writeResults(report);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
