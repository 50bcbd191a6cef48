// The typed client's README example is a file of its own (clients/typescript/examples/rebalance.ts),
// included in the README word for word: `npm run typecheck` compiles it (tsconfig.json includes it,
// `@wealth/client` mapped to the client's source), and here it runs against a fresh demo.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type StartedServer } from '../src/server.js';

const root = join(import.meta.dirname, '..');
const example = join(root, 'clients', 'typescript', 'examples', 'rebalance.ts');

it('the README shows the example file word for word', () => {
  const readme = readFileSync(join(root, 'clients', 'typescript', 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBe(readFileSync(example, 'utf8'));
});

describe('the example against a fresh demo', () => {
  let server: StartedServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wealth-example-'));
    server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' }));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs in as the demo advisor, rebalances, reads the trades and lists the team\'s models', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', example], {
      cwd: root,
      env: { ...process.env, BASE_URL: server.address, CREDENTIALS: join(dataDir, 'demo-credentials.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toMatch(/^20 accounts$/m);
    expect(output).toMatch(/^batch \d+ (Complete|Failed): 20 of 20 accounts$/m);
    expect(output).toMatch(/^ {2}\d+ trades in all$/m);
    const models = Number(/^(\d+) models: /m.exec(output)?.[1]);
    expect(models, output).toBeGreaterThan(0);
  }, 120_000);
});
