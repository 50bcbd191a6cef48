import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestDatabase } from './support/databases.js';

/**
 * The README's shell commands, run as printed against a started server: a newcomer's first hour.
 * Only the address changes (a free port instead of 8080); DATA_DIR is an absolute temporary folder,
 * the case `require('./…')` once broke.
 */
const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const blockWith = (text: string) => {
  const block = shellBlocks.find((b) => b.includes(text));
  if (!block) throw new Error(`README has no sh block with ${text}`);
  return block;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A statement on the test PostgreSQL database, outside any suite's schema. */
async function adminQuery(database: TestDatabase, text: string) {
  if (database.config.dialect !== 'postgres') return;
  const client = new pg.Client({ connectionString: database.config.url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describeEachDatabase('the README, as printed', (database) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wealth-readme-'));
  // On PostgreSQL the server gets a schema of its own (and one for its job queue), dropped at the end.
  const schema = database.config.dialect === 'postgres' ? `readme_${randomBytes(5).toString('hex')}` : undefined;
  let port = 0;
  let server: ChildProcess;
  let output = '';

  beforeAll(async () => {
    port = await freePort();
    const databaseEnv: Record<string, string> = { DATABASE_URL: '' };
    if (schema && database.config.dialect === 'postgres') {
      await adminQuery(database, `create schema ${schema}`);
      const url = new URL(database.config.url);
      url.searchParams.set('options', `-c search_path=${schema}`);
      Object.assign(databaseEnv, { DATABASE_URL: url.toString(), JOB_SCHEMA: `${schema}_jobs` });
    }
    server = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), 'serve'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...databaseEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk) => (output += chunk));
    server.stderr?.on('data', (chunk) => (output += chunk));
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`server exited during start-up:\n${output}`);
      if (i > 600) throw new Error(`server did not start:\n${output}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/api/healthz`).then((r) => r.status === 200, () => false);
      if (healthy) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      await adminQuery(database, `drop schema if exists ${schema} cascade`);
      await adminQuery(database, `drop schema if exists ${schema}_jobs cascade`);
    }
  }, 60_000);

  /** Runs README lines in bash from the repository folder, the address moved to the test's port. */
  const run = (script: string) => {
    const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script.replaceAll('localhost:8080', `localhost:${port}`)], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, BASE_URL: `http://localhost:${port}/api` },
      encoding: 'utf8',
      timeout: 170_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('"Try it", then "Start a rebalance and follow it": logs in from the credentials file and the demo\'s first rebalance ends Complete', () => {
    // An echo between the blocks: curl's answer ends without a newline, as it does on a terminal.
    const result = run(`${blockWith('USER=$(')}\necho\n${blockWith('GenerateTrades')}`);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const [clients, ...progress] = result.stdout.trim().split('\n');
    expect(JSON.parse(clients!)).toHaveLength(3);
    const last = progress.filter((line) => /accounts \(/.test(line)).at(-1)!;
    expect(last).toMatch(/^Complete +(\d+)\/\1 accounts \(100%\), 0 errors/);
    expect(result.stdout).toMatch(/trades: http:\/\/localhost:\d+\/api\/v1\/Trading\/TradeInstances\/\d+\/Trades/);
  }, 180_000);

  it('the browser sign-in snippet reads the same credentials file and prints the sign-in address', () => {
    const block = blockWith('redirect_uri=');
    const upToBrowser = block.slice(0, block.indexOf('# 2.'));
    const result = run(upToBrowser);
    expect(result.code, result.stderr).toBe(0);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const address = new URL(result.stdout.trim());
    expect(address.pathname).toBe('/api/oauth/');
    expect(address.searchParams.get('client_id')).toBe(String(credentials.partner.clientId));
    expect(address.searchParams.get('redirect_uri')).toBe(credentials.partner.redirectUris[0]);
  });

  it('GET /api and GET /rebalancer, the addresses start-up prints, answer with links to their documents', async () => {
    for (const prefix of ['/api', '/rebalancer']) {
      const index = (await (await fetch(`http://localhost:${port}${prefix}`)).json()) as { links: { rel: string; href: string }[] };
      expect(index.links.map((l) => l.rel)).toEqual(['reference', 'openapi', 'health']);
    }
  });
});

/**
 * The user documents point only inside the repository: paths they name exist, links resolve, and
 * nothing reaches for a folder beside it. (The decision records under docs/decisions/ quote the
 * context they were made in and are left out.)
 */
describe('the README and the user documents', () => {
  const markdown = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return path === join('docs', 'decisions') ? [] : markdown(path);
      return e.name.endsWith('.md') ? [path] : [];
    });
  const documents = ['README.md', ...markdown('docs')];

  it('npm run fuzz loads its support outside a test run (no vitest in its imports)', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', "await import('./test/support/fuzz.ts'); console.log('loaded')"], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).not.toMatch(/Vitest/);
    expect(result.stdout.trim()).toBe('loaded');
  });

  it.each(documents)('%s names no file outside the repository and no file that is not there', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|\/work\/|shared\/spec|(^|[\s`(])design\/\w/m);
    const named = [...text.matchAll(/`((?:docs|src|examples|test|bench|scripts|clients)\/[\w./-]+\.(?:md|ts|json))`/g)].map((m) => m[1]!);
    for (const path of named) expect(existsSync(join(root, path)), `${document} names ${path}`).toBe(true);
    const links = [...text.matchAll(/\]\(([^)#:]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    for (const link of links) {
      const target = join(dirname(join(root, document)), link);
      expect(existsSync(target), `${document} links ${relative(root, target)}`).toBe(true);
    }
  });
});

