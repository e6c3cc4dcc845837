/** Arguments of `npm run sim`: only `--port N` (or `--port=N`); 8000 by default, like the real daemon. */
export function parsePort(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0) return 8000;
  const arg = argv[i] ?? '';
  const text = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
  const port = Number(text);
  if (text === undefined || text === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer 0..65535, got ${String(text)}`);
  }
  return port;
}
