/** "Check the robot" (server/selftest/): run the self-test, read the last result. */
import type { SelfTestRequest } from '../../contract/selftest.ts';
import { badRequest } from '../../errors.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { SelfTest } from '../../selftest/selftest.ts';

export function parseSelfTestRequest(body: unknown): SelfTestRequest {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the body must be a JSON object: {confirmMove?}');
  const { confirmMove } = body as Record<string, unknown>;
  if (confirmMove !== undefined && typeof confirmMove !== 'boolean')
    throw badRequest('confirmMove must be true or false');
  return confirmMove === undefined ? {} : { confirmMove };
}

export function selfTestRoutes(selftest: SelfTest): RouteSpec[] {
  return [
    {
      method: 'POST',
      path: '/api/console/selftest',
      access: 'key',
      control: true,
      summary:
        'run the self-test: {confirmMove?} (the joint check moves the head); answers {startedAt, finishedAt, outcome, checks}',
      async handler(ctx) {
        const request = parseSelfTestRequest(await readJsonBody(ctx));
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await selftest.run(request);
      },
    },
    {
      method: 'GET',
      path: '/api/console/selftest',
      access: 'key',
      summary: 'the last self-test result: {last} (null before the first run)',
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { last: selftest.last() };
      },
    },
  ];
}
