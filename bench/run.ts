/**
 * `npm run bench`: starts the simulated daemon and the cockpit on loopback and measures state
 * fan-out, camera fan-out, the control path, throughput, slow clients, the dashboard, the black
 * box recorder (on and off) and the WebRTC relay; prints the report and writes bench/RESULTS.md.
 * BENCH_QUICK=1 shortens every phase (a smoke run, not figures). BENCH_ONLY=relay, dashboard or
 * recorder runs only that part and replaces only its section of RESULTS.md.
 */
import { measureCameraFanout, warmCamera } from './camera-fanout.ts';
import { measureControlPath } from './control-path.ts';
import { measureStopLatency } from './stop-latency.ts';
import { measureDashboard } from './dashboard.ts';
import { DASHBOARD_HEADING, renderDashboardSection } from './dashboard-report.ts';
import { measureGlassToGlass } from './glass-to-glass.ts';
import { measureIdle } from './idle.ts';
import { startStack, type Stack } from './processes.ts';
import { measureRecorder } from './recorder.ts';
import { RELAY_HEADING, renderRelayReport, type RelayResults } from './relay-report.ts';
import { measureRelay } from './relay-viewers.ts';
import { RECORDER_HEADING, renderRecorderSection, renderReport, type Results } from './report.ts';
import { writeResults, writeSection } from './results-file.ts';
import { measureSendFloor } from './send-floor.ts';
import { measureSlowClients } from './slow-clients.ts';
import { measureStateFanout } from './state-fanout.ts';
import { measureThroughput } from './throughput.ts';

const quick = process.env['BENCH_QUICK'] === '1';
const only = process.env['BENCH_ONLY'];
const PARTS = ['relay', 'dashboard', 'recorder'];
const stateSeconds = quick ? 3 : 20;
const phaseSeconds = quick ? 3 : 10;
/**
 * The relay's phases run longer: the simulator sends a keyframe every 2 s, about 12 of the 41
 * packets a viewer gets in that time, so in 10 s (5 keyframes) one slow keyframe set the p99.
 */
const relaySeconds = quick ? 3 : 30;
/** The idle window (the full 10 minutes is BENCH_IDLE_SECONDS=600; the default keeps a run short). */
const idleSeconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? (quick ? 5 : 60));
const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The black box records camera frames, and so keeps the JPEG decoder running, by default. These
 * phases measure the fan-out and the relay alone (the decoder starting and stopping with its
 * consumers is part of what they count); the recorder phase measures the recorder on its own.
 */
const NO_CAMERA_RECORDING = { ROBOT_RECORD_FPS: '0' };
/** Control requests come faster than an operator's: the per-client rate limit is lifted. */
const BENCH_ENV = { ROBOT_RATE_LIMIT: '1000', ...NO_CAMERA_RECORDING };

/** Prints a part's section and, on a real run, replaces it in RESULTS.md. */
function publishSection(heading: string, section: string): void {
  say(`\n${section}`);
  if (!quick) writeSection(heading, section);
}

/** The dashboard phase alone, on a cockpit of its own. */
async function dashboardOnly(): Promise<void> {
  const stack = await startStack(BENCH_ENV);
  try {
    say('bench: dashboard (Chromium)');
    publishSection(DASHBOARD_HEADING, renderDashboardSection(await measureDashboard(stack, quick ? 2 : 5, quick ? 3 : 10)));
  } finally {
    await stack.stop();
  }
}

/** The recorder on and off, each in a cockpit of its own. */
async function recorderPhase(): Promise<Results['recorder']> {
  say('bench: black box recorder on and off');
  return measureRecorder(phaseSeconds, quick ? 50 : 300);
}

/** WebRTC relay fan-out, its send floor, glass to glass, then idle on the same cockpit. */
async function relayPhases(stack: Stack, startedAt: number): Promise<Omit<RelayResults, 'oneCore'>> {
  const relay = [];
  for (const viewers of [1, 10, 50]) {
    say(`bench: WebRTC relay, ${viewers} viewers, ${relaySeconds} s`);
    relay.push(await measureRelay(stack, viewers, relaySeconds));
  }
  const floor = [];
  for (const viewers of [1, 10, 50]) {
    say(`bench: send floor, ${viewers} viewers, ${relaySeconds} s`);
    floor.push(await measureSendFloor(viewers, relaySeconds, { elsewhere: [stack.cockpit.pid, stack.sim.pid] }));
  }
  say(`bench: send floor, 50 viewers on two threads, ${relaySeconds} s`);
  floor.push(await measureSendFloor(50, relaySeconds, { threads: 2, elsewhere: [stack.cockpit.pid, stack.sim.pid] }));
  say('bench: glass to glass (Chromium)');
  const glass = await measureGlassToGlass(stack, quick ? 4 : 15, quick ? 1 : 5);
  say(`bench: idle, ${idleSeconds} s after the camera's idle stop`);
  const idle = await measureIdle(stack, idleSeconds, startedAt);
  return { relay, floor, glass, idle };
}

/** The same cockpit pinned to one core: state fan-out and 10 WebRTC viewers (and their send floor). */
async function oneCorePhases(): Promise<RelayResults['oneCore']> {
  const stack = await startStack(NO_CAMERA_RECORDING, ['taskset', '-c', '0']);
  try {
    const state = [];
    for (const viewers of [50, 200]) {
      say(`bench: one core, state fan-out, ${viewers} viewers`);
      state.push(await measureStateFanout(stack, viewers, stateSeconds));
    }
    say('bench: one core, WebRTC relay, 10 viewers');
    const relay = [await measureRelay(stack, 10, relaySeconds, true)];
    say('bench: one core, send floor, 10 viewers');
    const floor = [await measureSendFloor(10, relaySeconds, { oneCore: true, elsewhere: [stack.cockpit.pid, stack.sim.pid] })];
    return { state, relay, floor };
  } finally {
    await stack.stop();
  }
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
  say('bench: stop latency');
  const stop = await measureStopLatency(stack, quick ? 10 : 50);
  say('bench: slow clients');
  const slowClients = await measureSlowClients(stack, quick ? 50 : 300);
  say('bench: camera fan-out');
  await warmCamera(stack);
  const camera = [];
  for (const viewers of [1, 10, 50]) camera.push(await measureCameraFanout(stack, viewers, phaseSeconds));
  say('bench: dashboard');
  const dashboard = await measureDashboard(stack, quick ? 2 : 5, phaseSeconds);
  return { state, camera, control, stop, throughput, dashboard, slowClients };
}

async function main(): Promise<void> {
  if (only !== undefined && !PARTS.includes(only)) {
    throw new Error(`BENCH_ONLY=${only}: the parts that run alone are ${PARTS.join(', ')}`);
  }
  if (only === 'dashboard') return dashboardOnly();
  if (only === 'recorder') return publishSection(RECORDER_HEADING, renderRecorderSection(await recorderPhase(), true).join('\n'));
  const startedAt = performance.now();
  const stack = await startStack(BENCH_ENV);
  let others: Omit<Results, 'recorder'> | undefined;
  let relayResults: Omit<RelayResults, 'oneCore'>;
  try {
    if (only !== 'relay') others = await otherPhases(stack);
    relayResults = await relayPhases(stack, startedAt);
  } finally {
    await stack.stop();
  }
  // The recorder's cockpits start after this one has stopped, so they do not share the cores.
  const report = others ? renderReport({ ...others, recorder: await recorderPhase() }) : '';
  const relay = renderRelayReport({ ...relayResults, oneCore: await oneCorePhases() });
  if (only === 'relay') return publishSection(RELAY_HEADING, relay);
  const full = `${report}\n${relay}`;
  say(`\n${full}`);
  if (!quick) writeResults(full);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
