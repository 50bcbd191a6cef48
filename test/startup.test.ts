import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestDatabase } from './support/databases.js';

const root = join(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function wealth(args: string[], env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const outputs = new WeakMap<ChildProcess, () => string>();

function finished(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  outputs.set(child, () => output);
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

async function waitForHealth(base: string, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    // What the server printed is the only clue to a start-up that failed under load.
    if (child.exitCode !== null) throw new Error(`server exited during start-up (code ${child.exitCode}):\n${outputs.get(child)?.() ?? ''}`);
    try {
      const response = await fetch(`${base}/api/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

/** Runs a SQL statement against the test PostgreSQL database (schemas of spawned processes). */
async function adminQuery<T extends pg.QueryResultRow>(database: TestDatabase, text: string) {
  const client = new pg.Client({ connectionString: database.config.dialect === 'postgres' ? database.config.url : '' });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The environment of `wealth` processes a suite spawns: their own DATA_DIR and, on PostgreSQL, a
 * schema of their own (created by `fresh()`, chosen through the URL); both go when the suite ends.
 */
function spawnedEnvironment(database: TestDatabase, prefix: string, extra: (dataDir: string) => Record<string, string> = () => ({})) {
  const dataDir = mkdtempSync(join(tmpdir(), `wealth-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: dataDir, ...extra(dataDir) };
  let schema: string | undefined;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await adminQuery(database, `drop schema if exists ${schema} cascade`);
  });
  return {
    env,
    dataDir,
    schema: () => schema,
    async fresh() {
      if (database.config.dialect !== 'postgres') return;
      schema = `${prefix}_${randomBytes(5).toString('hex')}`;
      await adminQuery(database, `create schema ${schema}`);
      const url = new URL(database.config.url);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env.DATABASE_URL = url.toString();
    },
  };
}

describeEachDatabase('npm start on an empty database', (database) => {
  const spawned = spawnedEnvironment(database, 'start');
  const { env, dataDir } = spawned;

  it('seeds a demo firm, prints its logins, writes them to DATA_DIR, serves the book with them and stops cleanly on SIGTERM', async () => {
    await spawned.fresh();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = wealth(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' });
    const done = finished(server);
    await waitForHealth(base, server);

    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const api = credentials.users.find((u: { kind: string }) => u.kind === 'api');
    const token = await fetch(`${base}/api/v1/security/token`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`,
        client_id: String(credentials.partner.clientId),
        client_secret: credentials.partner.clientSecret,
      },
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const clients = await fetch(`${base}/api/v1/Portfolio/Clients?$top=5&$count=true`, { headers: { authorization: `Session ${access_token}` } });
    expect(clients.status).toBe(200);
    expect(((await clients.json()) as unknown[]).length).toBe(5);
    expect(Number(clients.headers.get('x-total-count'))).toBeGreaterThan(5);

    server.kill('SIGTERM');
    const { code, output } = await done;
    expect(code).toBe(0);
    expect(output).toContain(api.userName);
    expect(output).toContain(credentials.partner.clientSecret);
    expect(output).not.toContain(access_token);
  }, 120_000);

  it('stops with a message naming a wrong configuration value', async () => {
    const { code, output } = await finished(wealth(['serve'], { ...env, PORT: 'eighty' }));
    expect(code).toBe(1);
    expect(output).toContain('configuration: PORT must be a whole number');
  }, 60_000);
});

describeEachDatabase('wealth migrate', (database) => {
  it('exits non-zero with the reason when the database cannot be migrated', async () => {
    const env: Record<string, string> =
      database.config.dialect === 'postgres'
        ? { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' }
        : { DATA_DIR: '/etc/hostname/not-a-directory' };
    const { code, output } = await finished(wealth(['migrate'], env));
    expect(code).toBe(1);
    expect(output).toMatch(/error: /);
  }, 60_000);
});

/** Seeding and writing the credentials happen together or not at all; each firm keeps its own file. */
describeEachDatabase('wealth seed', (database) => {
  const spawned = spawnedEnvironment(database, 'seed', (dir) => ({ SQLITE_FILE: join(dir, 'seed.sqlite') }));
  const { env, dataDir } = spawned;
  const firms = async () => {
    const schema = spawned.schema();
    if (!schema) return undefined;
    // The refused seed stops before migrating: no table, so no firm.
    const [table] = await adminQuery<{ t: string | null }>(database, `select to_regclass('${schema}.firms')::text as t`);
    return table?.t ? adminQuery<{ code: string; name: string }>(database, `select code, name from ${schema}.firms order by id`) : [];
  };

  it('commits nothing when the credentials cannot be written, and gives each firm its own name and file', async () => {
    if (database.config.dialect === 'postgres') {
      await spawned.fresh();
      // PostgreSQL keeps no file in DATA_DIR: only the credentials need it, and they are checked first.
      const refused = await finished(wealth(['seed', '--demo', '--households', '2'], { ...env, DATA_DIR: '/etc/hostname/not-a-directory' }));
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("cannot write the firm's credentials in DATA_DIR");
      expect(await firms()).toEqual([]);
    }
    const first = await finished(wealth(['seed', '--demo', '--households', '2'], env));
    expect(first.code, first.output).toBe(0);
    const second = await finished(wealth(['seed', '--demo', '--households', '2', '--firm-code', 'SECOND'], env));
    expect(second.code, second.output).toBe(0);
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const other = JSON.parse(readFileSync(join(dataDir, 'credentials-SECOND.json'), 'utf8'));
    expect(demo.firm).toMatchObject({ code: 'DEMO', name: 'Summit Wealth Partners (Demo)' });
    expect(other.firm).toMatchObject({ code: 'SECOND', name: 'Demo firm SECOND' });
    if (spawned.schema()) expect((await firms())?.map((f) => f.code)).toEqual(['DEMO', 'SECOND']);

    // An operator takes a user's access away and gives it back, and resets a password, from the CLI.
    const api = other.users.find((u: { kind: string }) => u.kind === 'api').userName as string;
    const off = await finished(wealth(['users', 'deactivate', '--firm', 'SECOND', '--user', api], env));
    expect(off.code, off.output).toBe(0);
    expect(off.output).toContain(`${api}: deactivated, every token revoked`);
    const on = await finished(wealth(['users', 'reactivate', '--firm', 'SECOND', '--user', api], env));
    expect(on.output).toContain(`${api}: active`);
    const reset = await finished(wealth(['users', 'reset-password', '--firm', 'SECOND', '--user', api], env));
    expect(reset.output).toMatch(/new password: \S{12,}/);
    const unknown = await finished(wealth(['users', 'deactivate', '--firm', 'SECOND', '--user', 'nobody'], env));
    expect(unknown.code).toBe(1);
    expect(unknown.output.trim()).toBe('error: no user nobody in firm SECOND');

    const badCode = await finished(wealth(['seed', '--demo', '--firm-code', 'a b!'], env));
    expect(badCode.code).toBe(1);
    expect(badCode.output.trim()).toBe('--firm-code must be 1 to 32 letters, digits, - or _; got "a b!"');
  }, 120_000);
});
