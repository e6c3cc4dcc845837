/**
 * Command-line flags of `npm run serve` / `npm start` (README.md, "Commands"). Flags win over the
 * environment; unknown flags stop the start with a message rather than being ignored.
 */
import type { Flags } from '../server/index.ts';

export interface ParsedArgs {
  flags: Flags;
  /** A sub-command such as `mint-token`, with its own options. */
  command: string | undefined;
  options: Record<string, string>;
}

const VALUE_FLAGS: Record<string, keyof Flags> = {
  '--robot': 'robot',
  '--daemon': 'daemon',
  '--host': 'host',
  '--port': 'port',
  '--data-dir': 'dataDir',
};

/** Sub-command options that take no value. */
const SWITCH_OPTIONS = new Set(['--dry-run']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags: Flags = {};
  const options: Record<string, string> = {};
  let command: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--sim') {
      flags.sim = true;
      continue;
    }
    if (command !== undefined && SWITCH_OPTIONS.has(name) && inline === undefined) {
      options[name.slice(2)] = 'true';
      continue;
    }
    const key = VALUE_FLAGS[name];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
      return v;
    };
    if (key) (flags as Record<string, string>)[key] = value();
    else if (command !== undefined && name.startsWith('--')) options[name.slice(2)] = value();
    else if (command === undefined && !name.startsWith('-')) command = name;
    else throw new Error(`unknown flag ${name} (see README: npm run serve -- --help)`);
  }
  return { flags, command, options };
}

/** The flags as a command line again, for the server process a supervisor or a unit starts. */
export function formatFlags(flags: Flags): string[] {
  const out: string[] = flags.sim ? ['--sim'] : [];
  for (const [flag, key] of Object.entries(VALUE_FLAGS)) {
    const value = flags[key];
    if (typeof value === 'string') out.push(flag, value);
  }
  return out;
}
