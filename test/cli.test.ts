import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', 'bin', 'wealth.js');
// From a directory outside the checkout, as an operator with the package on PATH would run it.
const elsewhere = mkdtempSync(join(tmpdir(), 'wealth-cli-'));
const wealth = (...args: string[]) => {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: elsewhere, encoding: 'utf8', env: { ...process.env, DATA_DIR: elsewhere } });
  return { code: run.status, out: run.stdout, err: run.stderr };
};

it('describes every command and option, from any directory', () => {
  const help = wealth('--help');
  expect(help.code).toBe(0);
  for (const command of ['serve', 'migrate', 'seed', 'import', 'users', 'worker']) expect(help.out).toContain(command);
  const seed = wealth('seed', '--help');
  expect(seed.code).toBe(0);
  for (const option of ['--households', '--seed', '--firm-code', '--profile', 'direct-indexing']) expect(seed.out).toContain(option);
  expect(wealth('import', '--help').out).toContain('FILE:LINE: FIELD: message');
  expect(wealth('users', 'reset-password', '--help').out).toContain('--password');
}, 60_000);

it('refuses misuse with a non-zero exit and a one-line reason', () => {
  const cases: [string[], string][] = [
    [[], 'Usage: wealth'],
    [['bogus'], "error: unknown command 'bogus'"],
    [['seed', '--demo', '--households', 'many'], '--households must be a whole number'],
    [['seed', '--demo', '--profile', 'huge'], "error: option '--profile <profile>' argument 'huge' is invalid"],
    [['import', '--firm', 'DEMO'], "error: missing required argument 'files'"],
    [['users', 'deactivate', '--firm', 'DEMO'], "error: required option '--user <name>' not specified"],
  ];
  for (const [args, reason] of cases) {
    const run = wealth(...args);
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.err, args.join(' ')).toContain(reason);
    if (args.length > 0) expect(run.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
  }
}, 60_000);
