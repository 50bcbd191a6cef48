/**
 * A long fuzz campaign over every operation of both applications (test/support/fuzz.ts):
 *   npm run fuzz -- --requests 100000 [--postgres]
 * Prints requests sent and 5xx found (and refused writes that left rows), and exits 1 on any.
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig, type DatabaseConfig } from '../src/config.js';
import { migrateToLatest, openDatabase } from '../src/db/database.js';
import { createTestBook } from '../test/support/book.js';
import { createTestFirm } from '../test/support/firm.js';
import { fuzzService } from '../test/support/fuzz.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, postgres: { type: 'boolean', default: false }, seed: { type: 'string', default: '1' } } });
const target = Number(values.requests);
const database: DatabaseConfig = values.postgres
  ? { dialect: 'postgres', url: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', poolSize: 4 }
  : { dialect: 'sqlite', file: ':memory:' };
const schema = values.postgres ? `fuzz_${process.pid}` : undefined;
if (schema && database.dialect === 'postgres') {
  const admin = openDatabase(database);
  await admin.kysely.schema.createSchema(schema).ifNotExists().execute();
  await admin.close();
}
const db = openDatabase(database, { schema });
await migrateToLatest(db);
const firm = await createTestFirm(db.kysely, 'fuzz');
await createTestBook(db.kysely, firm.firmId, firm.representativeId);
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', ...(schema ? { JOB_SCHEMA: `${schema}_jobs` } : {}) }, { database }), db });
await app.ready();

let sent = 0;
let serverErrors = 0;
let partialWrites = 0;
for (let round = 0; sent < target; round++) {
  const result = await fuzzService({ app, db, firm }, 20, Number(values.seed) * 1000 + round);
  sent += result.sent;
  serverErrors += result.serverErrors.length;
  partialWrites += result.partialWrites.length;
  for (const finding of [...result.serverErrors, ...result.partialWrites]) console.log(JSON.stringify(finding));
  console.log(`round ${round}: ${sent} requests sent, ${serverErrors} 5xx, ${partialWrites} refused writes that wrote`);
}
await app.close();
if (schema) await db.kysely.schema.dropSchema(schema).cascade().execute();
await db.close();
console.log(`${database.dialect}: ${sent} requests sent, ${serverErrors} 5xx found, ${partialWrites} partial writes`);
process.exit(serverErrors + partialWrites > 0 ? 1 : 0);
