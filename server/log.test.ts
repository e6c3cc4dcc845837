import { describe, expect, it } from 'vitest';
import { createLog, redact, type LogRecord } from './log.ts';

describe('structured log', () => {
  it('never writes secrets: token-like fields and bearer or ?token= values are redacted', () => {
    const records: LogRecord[] = [];
    const log = createLog({ level: 'debug', sink: (r) => records.push(r) }).child('auth');
    log.warn('refused Bearer abc.def.ghi from /ws?token=s3cr3t&x=1', {
      token: 'owner-secret',
      headers: { authorization: 'Bearer owner-secret', cookie: 'cockpit_session=abc' },
      deviceToken: 'dev-secret',
      nested: { apiKey: 'k', ok: 'visible' },
    });
    const text = JSON.stringify(records);
    for (const secret of ['owner-secret', 'abc.def.ghi', 's3cr3t', 'dev-secret', 'cockpit_session=abc', '"k"']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('visible');
    expect(records[0]).toMatchObject({ level: 'warn', scope: 'auth' });
  });

  it('drops records below the level', () => {
    const records: LogRecord[] = [];
    const log = createLog({ level: 'warn', sink: (r) => records.push(r) });
    log.info('quiet');
    log.error('loud');
    expect(records.map((r) => r.msg)).toEqual(['loud']);
  });

  it('redacts inside arrays and leaves plain values alone', () => {
    expect(redact(['Bearer x', 3, null])).toEqual(['Bearer [redacted]', 3, null]);
  });

  it('leaves out what is nested past its depth instead of copying it unread', () => {
    let deep: unknown = { token: 'deep-secret-value' };
    for (let i = 0; i < 12; i += 1) deep = { next: deep };
    const text = JSON.stringify(redact(deep));
    expect(text).not.toContain('deep-secret-value');
    expect(text).toContain('[too deep]');
  });
});
