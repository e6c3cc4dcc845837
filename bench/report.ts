/** Formats benchmark figures as a markdown report with its targets. */
import type { SlowClientsResult } from './slow-clients.ts';
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import type { CameraResult } from './camera-fanout.ts';
import { WARMUP, type ControlResult } from './control-path.ts';
import type { StopResult } from './stop-latency.ts';
import type { DashboardResult } from './dashboard.ts';
import { renderDashboardSection } from './dashboard-report.ts';
import type { RecorderResult } from './recorder.ts';
import { ROOT } from './processes.ts';
import type { FanoutResult } from './state-fanout.ts';
import type { ThroughputResult } from './throughput.ts';

export interface Results {
  state: FanoutResult[];
  camera: CameraResult[];
  control: ControlResult;
  stop: StopResult;
  throughput: ThroughputResult;
  dashboard: DashboardResult;
  slowClients: SlowClientsResult;
  recorder: RecorderResult;
}

const f = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const pass = (ok: boolean) => (ok ? 'met' : '**missed**');

function machine(): string {
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
  } catch {
    // not a checkout
  }
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}; commit ${commit}; ${new Date().toISOString()}`;
}

export function renderReport(r: Results): string {
  const one = r.state.find((s) => s.viewers === 1);
  const most = r.state[r.state.length - 1];
  const upstreamRatio = one && most ? most.upstreamRequestsPerSecond / Math.max(one.upstreamRequestsPerSecond, 1e-9) : NaN;
  const cam50 = r.camera[r.camera.length - 1];
  const lines = [
    '# Benchmark results',
    '',
    `Machine: ${machine()}. The simulated daemon and the cockpit run as separate processes on`,
    '127.0.0.1; the load generator is a third. CPU is the cockpit process tree (including its ffmpeg',
    'decoder), as a percentage of one core. Regenerate with `npm run bench`.',
    '',
    '## State fan-out (/ws at 15 Hz)',
    '',
    '| Viewers | Seconds | Frames/viewer/s | Delivered | p99 gap (ms) | Cockpit CPU | RSS (MiB) | Upstream req/s | Upstream state streams |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.state.map(
      (s) =>
        `| ${s.viewers} | ${f(s.seconds, 0)} | ${f(s.framesPerViewerPerSecond, 2)} | ${f(s.deliveredPercent, 2)} % | ${f(s.p99GapMs)} | ${f(s.cpuPercent)} % | ${s.rssMb} | ${f(s.upstreamRequestsPerSecond, 2)} | ${s.upstreamStateStreams} |`,
    ),
    '',
    '## Camera fan-out (MJPEG /api/stream)',
    '',
    '| Viewers | Frames/viewer/s | Cockpit CPU | CPU per viewer | Upstream camera sessions |',
    '|---|---|---|---|---|',
    ...r.camera.map(
      (c) => `| ${c.viewers} | ${f(c.framesPerViewerPerSecond, 2)} | ${f(c.cpuPercent)} % | ${f(c.cpuPercentPerViewer, 3)} % | ${c.upstreamCameraSessions} |`,
    ),
    '',
    '## Control path (POST /api/control/look vs the same goto straight to the daemon)',
    '',
    `Sequential, after ${WARMUP} uncounted pairs (V8 compiling the path).`,
    '',
    '| Requests | Direct p50 / p99 (ms) | Through the cockpit p50 / p99 (ms) | Ratio (p50) | Receive → daemon send p50 / p99 (ms) |',
    '|---|---|---|---|---|',
    `| ${r.control.requests} | ${f(r.control.directP50, 2)} / ${f(r.control.directP99, 2)} | ${f(r.control.cockpitP50, 2)} / ${f(r.control.cockpitP99, 2)} | ${f(r.control.ratioP50, 2)} | ${f(r.control.receiveToDaemonP50, 3)} / ${f(r.control.receiveToDaemonP99, 3)} |`,
    '',
    '## STOP (POST /api/control/stop with a recorded move playing, until it answers with the daemon empty)',
    '',
    '| Stops | p50 / p99 / max (ms) |',
    '|---|---|',
    `| ${r.stop.stops} | ${f(r.stop.p50, 2)} / ${f(r.stop.p99, 2)} / ${f(r.stop.max, 2)} |`,
    '',
    '## Throughput (authenticated GET /api/state vs a bare Koa handler, same JSON)',
    '',
    'Each server has core 0 to itself while measured; the load generator and the simulator share core 1',
    '(bench/throughput.ts). CPU per request is the server process\'s own time divided by requests served.',
    `After two warm-up rounds each, ${r.throughput.roundRatios.length} rounds alternate the two servers; the row is the median round. Every round's ratio: ${r.throughput.roundRatios.map((x) => f(x, 2)).join(', ')}.`,
    '',
    '| Concurrency | Cockpit req/s | Bare Koa req/s | Ratio | Cockpit CPU per request (µs) | Bare Koa CPU per request (µs) |',
    '|---|---|---|---|---|---|',
    `| ${r.throughput.concurrency} | ${f(r.throughput.cockpitRps, 0)} | ${f(r.throughput.bareRps, 0)} | ${f(r.throughput.ratio, 2)} | ${f(r.throughput.cockpitCpuUs, 1)} | ${f(r.throughput.bareCpuUs, 1)} |`,
    '',
    '## Slow clients (150 half-sent requests held open)',
    '',
    '| Half-open | Requests | Quiet p50 / p99 (ms) | With them p50 / p99 (ms) | Added at p99 (ms) |',
    '|---|---|---|---|---|',
    `| ${r.slowClients.halfOpen} | ${r.slowClients.requests} | ${f(r.slowClients.quietP50, 2)} / ${f(r.slowClients.quietP99, 2)} | ${f(r.slowClients.loadedP50, 2)} / ${f(r.slowClients.loadedP99, 2)} | ${f(r.slowClients.addedP99, 2)} |`,
    '',
    renderDashboardSection(r.dashboard),
    ...renderRecorderSection(r.recorder),
    '## Targets',
    '',
    'The dashboard\'s targets are in its own section above.',
    '',
    '| Target | Figure | |',
    '|---|---|---|',
    `| ${most?.viewers ?? '?'} viewers: ≥ 99 % of frames delivered | ${f(most?.deliveredPercent ?? NaN, 2)} % | ${pass((most?.deliveredPercent ?? 0) >= 99)} |`,
    `| ${most?.viewers ?? '?'} viewers: p99 gap < 100 ms | ${f(most?.p99GapMs ?? NaN)} ms | ${pass((most?.p99GapMs ?? Infinity) < 100)} |`,
    `| upstream with ${most?.viewers ?? '?'} viewers ≤ 1.05 × with 1 | ${f(upstreamRatio, 3)} × | ${pass(upstreamRatio <= 1.05)} |`,
    `| ${cam50?.viewers ?? '?'} MJPEG viewers: < 1 % of a core each | ${f(cam50?.cpuPercentPerViewer ?? NaN, 3)} % | ${pass((cam50?.cpuPercentPerViewer ?? Infinity) < 1)} |`,
    `| control path: cockpit p99 < 2 ms (receive → daemon send) | ${f(r.control.receiveToDaemonP99, 3)} ms | ${pass(r.control.receiveToDaemonP99 < 2)} |`,
    `| STOP answered with the daemon's moves empty, p99 < 200 ms | ${f(r.stop.p99, 2)} ms | ${pass(r.stop.p99 < 200)} |`,
    `| 150 half-open requests add < 100 ms at p99 | ${f(r.slowClients.addedP99, 2)} ms | ${pass(r.slowClients.addedP99 < 100)} |`,
    `| /api/state ≥ 0.8 × bare Koa | ${f(r.throughput.ratio, 2)} × | ${pass(r.throughput.ratio >= 0.8)} |`,
    ...recorderTargets(r.recorder),
    '',
  ];
  return lines.join('\n');
}

export const RECORDER_HEADING = '## Black box recorder (on with its defaults, camera at 5 fps, vs ROBOT_RECORD_MINUTES=0)';

/** The load while the figures were taken: on this shared VM it decides what they mean. */
function loadNote(): string {
  const [one, five] = loadavg();
  return `Load average while measuring: ${f(one ?? NaN, 2)} (1 min), ${f(five ?? NaN, 2)} (5 min) on ${cpus().length} cores.`;
}

function recorderTargets(r: RecorderResult): string[] {
  return [
    `| recorder overhead ≤ 2 % of a core (camera at 5 fps) | ${f(r.overheadPercent)} % | ${pass(r.overheadPercent <= 2)} |`,
    `| control path with the recorder on: receive → daemon send p99 < 2 ms | ${f(r.on.control.receiveToDaemonP99, 3)} ms | ${pass(r.on.control.receiveToDaemonP99 < 2)} |`,
  ];
}

/** The recorder's section; `BENCH_ONLY=recorder` writes it alone, with its two targets. */
export function renderRecorderSection(r: RecorderResult, withTargets = false): string[] {
  return [
    RECORDER_HEADING,
    '',
    `Each side is a fresh cockpit with one MJPEG viewer open (so the camera decoder runs in both); ${r.seconds} s per figure. ${loadNote()}`,
    '',
    '| | Cockpit CPU | Control p50 / p99 (ms) | Receive → daemon send p50 / p99 (ms) |',
    '|---|---|---|---|',
    ...(['on', 'off'] as const).map((k) => {
      const x = r[k];
      return `| recorder ${k} | ${f(x.cpuPercent)} % | ${f(x.control.cockpitP50, 2)} / ${f(x.control.cockpitP99, 2)} | ${f(x.control.receiveToDaemonP50, 3)} / ${f(x.control.receiveToDaemonP99, 3)} |`;
    }),
    '',
    `Disk: ${f(r.bytesPerMinuteWithCamera / 2 ** 20, 2)} MiB per minute with camera frames (${f(r.cameraFramesPerSecond, 2)} frames/s recorded while the camera delivered ${f(r.sourceFramesPerSecond, 2)}), ${f(r.bytesPerMinuteStateOnly / 2 ** 20, 2)} MiB per minute with camera recording off.`,
    '',
    ...(withTargets ? ['| Target | Figure | |', '|---|---|---|', ...recorderTargets(r), ''] : []),
  ];
}
