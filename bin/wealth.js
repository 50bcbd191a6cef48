#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so that `wealth` works from a plain checkout.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// tsx is resolved from this package, not from the caller's directory: `wealth` works from anywhere.
const tsx = import.meta.resolve('tsx');
const result = spawnSync(process.execPath, ['--import', tsx, join(root, 'src/cli.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
