import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { loadConfig } from '../config.js';

describeEachDatabase('request logging', (database) => {
  const lines: string[] = [];
  const t = useTestApp(database, { env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });

  it('writes one JSON line per request, with its status and time, and never the query string', async () => {
    lines.length = 0;
    const response = await t.app.inject({ url: '/api/healthz?secret=abc' });
    expect(response.statusCode).toBe(200);
    const mine = lines.map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; statusCode?: number; ms?: number }).filter((l) => l.req?.url === '/api/healthz');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request', statusCode: 200, ms: expect.any(Number) });
    expect(lines.join('')).not.toContain('secret=abc');
  });
});

it('chooses the log format from LOG_FORMAT, and refuses another', () => {
  expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
});
