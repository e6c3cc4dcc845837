/**
 * One cockpit for the network-namespace test (lan-netns.test.ts): a real cockpit with the
 * simulator, bound to every address of its namespace, HTTPS on, mDNS asking every 500 ms.
 * It prints one JSON line `{identity, advertising, peers}` each time what it knows changes.
 * Run as `tsx lan-node.ts <data dir>`; the robot's name is already in `<data dir>/robot.json`.
 */
import { loadConfig } from '../../config.ts';
import { startCockpit } from '../../index.ts';
import { createLog, stderrSink } from '../../log.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: lan-node.ts <data dir>');
const config = loadConfig({
  env: { ROBOT_TRACK_AUTOSTART: '0', ROBOT_THINKER_INTERVAL: '3600', ROBOT_HTTPS_PORT: '8098', ROBOT_LOG_LEVEL: 'debug' },
  flags: { sim: true, port: '8097', host: '0.0.0.0', dataDir },
});
const log = createLog({ level: 'debug', scope: 'lan-node', sink: stderrSink });
const cockpit = await startCockpit({ config, log, ownerToken: 'lan-node-owner-token-0123456789', lan: { queryIntervalMs: 500 } });
let last = '';
const report = () => {
  const line = JSON.stringify({
    identity: cockpit.robot.health().identity,
    advertising: cockpit.discovery.advertising(),
    peers: cockpit.discovery.fleet.peers(),
  });
  if (line !== last) process.stdout.write(`${line}\n`);
  last = line;
};
const timer = setInterval(report, 200);
report();
process.on('SIGTERM', () => {
  clearInterval(timer);
  void cockpit.stop().then(() => process.exit(0));
});
