/** The comparison point for throughput: a bare Koa handler returning a fixed JSON body. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import Koa from 'koa';

const body = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as unknown;
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = createServer(app.callback()).listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`bare: koa on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
