/** Arguments of `npm run real-daemon`: `--port N` (8000), `--version X` (the pin), `--sim`, `--install-only`. */
import { REAL_DAEMON_VERSION } from './pin.ts';
import type { Flavour } from './venv.ts';

export interface RealDaemonArgs {
  port: number;
  version: string;
  flavour: Flavour;
  installOnly: boolean;
}

export const USAGE =
  'usage: npm run real-daemon -- [--port 8000] [--version X.Y.Z] [--sim (MuJoCo physics)] [--install-only]';

export function parseRealDaemonArgs(argv: readonly string[]): RealDaemonArgs {
  const out: RealDaemonArgs = { port: 8000, version: REAL_DAEMON_VERSION, flavour: 'mockup', installOnly: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[(i += 1)];
      if (v === undefined || v === '') throw new Error(`${name} needs a value\n${USAGE}`);
      return v;
    };
    if (name === '--port') {
      const text = value();
      const port = Number(text);
      if (!/^\d+$/.test(text) || port > 65535) throw new Error(`--port must be an integer 0..65535, got ${text}`);
      out.port = port;
    } else if (name === '--version') {
      const v = value();
      if (!/^\d+\.\d+\.\d+([a-z0-9.]*)$/i.test(v)) throw new Error(`--version must look like 1.13.0, got ${v}`);
      out.version = v;
    } else if (name === '--sim') out.flavour = 'mujoco';
    else if (name === '--install-only') out.installOnly = true;
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return out;
}
