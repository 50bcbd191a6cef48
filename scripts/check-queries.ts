/**
 * Only repositories (files named *repository.ts, and src/db) build queries. dependency-cruiser
 * checks who imports Kysely's values; this catches a query built on a connection passed in by type.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/;
const exempt = (file: string) => file.startsWith('src/db/') || /repository\.ts$|\.test\.ts$|test-support\.ts$/.test(file);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

const offenders = [...files('src')].filter((file) => !exempt(file) && QUERY.test(readFileSync(file, 'utf8')));
for (const file of offenders) console.error(`${file}: builds a query outside a repository`);
process.exit(offenders.length > 0 ? 1 : 0);
