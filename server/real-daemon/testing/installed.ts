/**
 * Whether the suites against the real daemon can run here. On a developer machine without the
 * venv they are skipped, and their title names the command that installs it; under CI (`CI` set)
 * a missing venv is a failure, so the proof cannot silently vanish.
 */
import { REAL_DAEMON_VERSION } from '../pin.ts';
import { isInstalled, venvPaths, type Flavour, type VenvPaths } from '../venv.ts';

export const INSTALL_COMMAND = 'npm run real-daemon -- --install-only';
export const INSTALL_MUJOCO_COMMAND = 'npm run real-daemon -- --sim --install-only';

export interface Installed {
  paths: VenvPaths;
  installed: boolean;
  /** True when the suite must fail rather than skip (CI). */
  required: boolean;
  /** Suffix for a describe title: how to get the suite to run. */
  note: string;
  /** The failure under CI when the venv is missing. */
  failure: string;
}

export function realDaemonInstall(flavour: Flavour = 'mockup', env: NodeJS.ProcessEnv = process.env): Installed {
  const paths = venvPaths(REAL_DAEMON_VERSION, flavour, env);
  const installed = isInstalled(paths, REAL_DAEMON_VERSION);
  const command = flavour === 'mujoco' ? INSTALL_MUJOCO_COMMAND : INSTALL_COMMAND;
  const ci = env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0';
  return {
    paths,
    installed,
    // MuJoCo is "where it installs": CI proves it only when its venv was made.
    required: ci && flavour === 'mockup',
    note: installed ? `reachy-mini ${REAL_DAEMON_VERSION}` : `skipped: reachy-mini ${REAL_DAEMON_VERSION} not installed, run ${command}`,
    failure: `reachy-mini ${REAL_DAEMON_VERSION} is not installed in ${paths.root}: CI must run \`${command}\` before the tests`,
  };
}
