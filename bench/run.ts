/**
 * `npm run bench`: starts the simulated daemon and the cockpit on loopback and measures state
 * fan-out, camera fan-out, the control path, throughput, slow clients, the dashboard, the black
 * box recorder (on and off) and the WebRTC relay; prints the report and writes bench/RESULTS.md. BENCH_QUICK=1 shortens every phase (a smoke run, not figures).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureCameraFanout, warmCamera } from './camera-fanout.ts';
import { measureControlPath } from './control-path.ts';
import { measureDashboard } from './dashboard.ts';
import { measureGlassToGlass } from './glass-to-glass.ts';
import { measureIdle } from './idle.ts';
import { RELAY_HEADING, renderRelayReport, type RelayResults } from './relay-report.ts';
import { measureRelay } from './relay-viewers.ts';
import { ROOT, startStack, type Stack } from './processes.ts';
import { measureRecorder } from './recorder.ts';
import { renderReport, type Results } from './report.ts';
import { measureSlowClients } from './slow-clients.ts';
import { measureStateFanout } from './state-fanout.ts';
import { measureThroughput } from './throughput.ts';

const quick = process.env['BENCH_QUICK'] === '1';
/** BENCH_ONLY=relay: only the WebRTC relay phases; RESULTS.md gets its relay section replaced. */
const relayOnly = process.env['BENCH_ONLY'] === 'relay';
const stateSeconds = quick ? 3 : 20;
const phaseSeconds = quick ? 3 : 10;
/** The idle window (the full 10 minutes is BENCH_IDLE_SECONDS=600; the default keeps a run short). */
const idleSeconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? (quick ? 5 : 60));
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Written by hand below this line of RESULTS.md (profiles, before/after); a run keeps it. */
const NOTES_MARK = '<!-- notes: written by hand, kept by npm run bench -->';

/** Replaces the relay section of RESULTS.md (from its heading to the notes, or the end). */
function writeRelaySection(section: string): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = old.indexOf(RELAY_HEADING);
  const notes = old.indexOf(NOTES_MARK);
  const before = (start >= 0 ? old.slice(0, start) : notes >= 0 ? old.slice(0, notes) : old).trimEnd();
  const after = notes >= 0 ? `\n\n${old.slice(notes)}` : '\n';
  writeFileSync(file, `${before}\n\n${section.trimEnd()}${after}`);
}

function writeResults(report: string): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = old.indexOf(NOTES_MARK);
  writeFileSync(file, at < 0 ? report : `${report.trimEnd()}\n\n${old.slice(at)}`);
}

/** WebRTC relay fan-out, glass to glass, then idle on the same cockpit. */
async function relayPhases(stack: Stack, startedAt: number): Promise<Omit<RelayResults, 'oneCore'>> {
  const relay = [];
  for (const viewers of [1, 10, 50]) {
    say(`bench: WebRTC relay, ${viewers} viewers, ${phaseSeconds} s`);
    relay.push(await measureRelay(stack, viewers, phaseSeconds));
  }
  say('bench: glass to glass (Chromium)');
  const glass = await measureGlassToGlass(stack, quick ? 4 : 15);
  say(`bench: idle, ${idleSeconds} s after the camera's idle stop`);
  const idle = await measureIdle(stack, idleSeconds, startedAt);
  return { relay, glass, idle };
}

/** The same cockpit pinned to one core: state fan-out and 10 WebRTC viewers. */
async function oneCorePhases(): Promise<RelayResults['oneCore']> {
  const stack = await startStack({}, ['taskset', '-c', '0']);
  try {
    const state = [];
    for (const viewers of [50, 200]) {
      say(`bench: one core, state fan-out, ${viewers} viewers`);
      state.push(await measureStateFanout(stack, viewers, stateSeconds));
    }
    say('bench: one core, WebRTC relay, 10 viewers');
    const relay = [await measureRelay(stack, 10, phaseSeconds)];
    return { state, relay };
  } finally {
    await stack.stop();
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  // Control requests come faster than an operator's: lift the per-client rate limit for the run.
  const stack = await startStack({ ROBOT_RATE_LIMIT: '1000' });
  let others: Omit<Results, 'recorder'> | undefined;
  let relayResults: Omit<RelayResults, 'oneCore'>;
  try {
    if (!relayOnly) others = await otherPhases(stack);
    relayResults = await relayPhases(stack, startedAt);
  } finally {
    await stack.stop();
  }
  let report = '';
  if (others) {
    // The recorder on and off, each in a cockpit of its own started after this one has stopped.
    say('bench: black box recorder on and off');
    const recorder = await measureRecorder(phaseSeconds, quick ? 50 : 300);
    report = renderReport({ ...others, recorder });
  }
  const relay = renderRelayReport({ ...relayResults, oneCore: await oneCorePhases() });
  const full = relayOnly ? relay : `${report}\n${relay}`;
  say(`\n${full}`);
  if (!quick) (relayOnly ? writeRelaySection : writeResults)(full);
}

/** State and camera fan-out, throughput, control path, slow clients and the dashboard. */
async function otherPhases(stack: Stack): Promise<Omit<Results, 'recorder'>> {
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
  return { state, camera, control, throughput, dashboard, slowClients };
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
