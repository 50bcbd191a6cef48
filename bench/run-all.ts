/**
 * `npm run bench`: runs every benchmark script in bench/ one after the other, each in its own
 * process (so peak memory is per benchmark), passing extra arguments through.
 * `npm run bench -- engine seed` runs only those.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = import.meta.dirname;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.ts$/, '')))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n=== bench/${script} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, script)], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    failed++;
    console.log(`bench/${script} exited with ${result.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
