import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { runImportCommand } from './import/index.js';
import { DEMO_FIRM_CODE, type DemoCredentials, ensureCredentialsWritable, FIRM_CODE, seedDemoFirm, writeDemoCredentials } from './seed/demo.js';
import { parseProfile } from './seed/profiles.js';
import { findFirmIdByCode } from './book/firms/repository.js';
import { AuthRepository } from './auth/repository.js';
import { UserAdminService } from './auth/users.js';
import { createTradingServices } from './trading/index.js';
import { startServer } from './server.js';
import { systemClock } from './shared/clock.js';
import { guardProcess } from './shared/logger.js';
import { progress } from './shared/progress.js';

const USAGE = `wealth <command> [options]

  serve   [--app all|platform|rebalancer]   serve the applications (PORT, default 8080)
  migrate                                    bring the database schema up to date
  seed    --demo [--households N] [--seed S] [--firm-code CODE] [--profile demo|advisory|direct-indexing]
                                             generate a demo firm with a realistic book
  import  --firm CODE [--json] FILE...       load a book from JSON or CSV files (all or nothing);
                                             problems as FILE:LINE: FIELD: message, or --json
  worker                                     work rebalance chunks (PostgreSQL; run any number)
  users   deactivate|reactivate|reset-password --firm CODE --user NAME [--password P]
                                             take a user's access away (tokens revoked at once),
                                             give it back, or set a password (generated when omitted)

Configuration comes from the environment; see README.md.`;

function printCredentials(credentials: DemoCredentials, file: string) {
  const { firm, users, partner } = credentials;
  console.log(`\nDemo firm "${firm.name}" (code ${firm.code}, id ${firm.id})`);
  console.log('  logins (user name / password):');
  for (const user of users) console.log(`    ${user.userName.padEnd(28)} ${user.password}   ${user.kind}, ${user.role}: ${user.description}`);
  console.log(`  partner application: client_id ${partner.clientId}  client_secret ${partner.clientSecret}`);
  console.log(`  redirect URIs: ${partner.redirectUris.join(', ')}`);
  console.log(`  written to ${file}\n`);
}

async function withDatabase<T>(work: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { app: { type: 'string' } } });
      const env = values.app ? { ...process.env, WEALTH_APPS: values.app } : process.env;
      const config = loadConfig(env);
      const server = await startServer(config);
      if (server.demo) printCredentials(server.demo.credentials, server.demo.file);
      else if (server.demoFile) console.log(`Demo logins and partner credentials: ${server.demoFile}`);
      const base = server.address.replace('0.0.0.0', 'localhost');
      if (config.apps !== 'rebalancer') console.log(`Portfolio platform:       ${base}${config.platformPrefix}  (docs: ${base}${config.platformPrefix}/docs)`);
      if (config.apps !== 'platform') console.log(`Rebalancing application:  ${base}${config.rebalancerPrefix}`);
      return -1; // keep running until a signal
    }
    case 'migrate': {
      const config = loadConfig();
      const db = openDatabase(config.database);
      try {
        const applied = await migrateToLatest(db);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'seed': {
      const { values } = parseArgs({
        args: rest,
        options: { demo: { type: 'boolean' }, households: { type: 'string' }, seed: { type: 'string' }, 'firm-code': { type: 'string' }, profile: { type: 'string' } },
      });
      if (!values.demo) throw new UsageError('seed needs --demo');
      const households = Number(values.households ?? 1000);
      const seed = Number(values.seed ?? 1);
      if (!Number.isInteger(households) || households < 0) throw new UsageError('--households must be a whole number');
      if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
      const config = loadConfig();
      const firmCode = values['firm-code'] ?? DEMO_FIRM_CODE;
      if (!FIRM_CODE.test(firmCode)) throw new UsageError(`--firm-code must be 1 to 32 letters, digits, - or _; got "${firmCode}"`);
      await ensureCredentialsWritable(config.dataDir, firmCode);
      const meter = progress({ label: 'seeding', unit: 'households', total: households });
      const credentials = await withDatabase((db) =>
        seedDemoFirm(db, { households, seed, firmCode: values['firm-code'], profile: parseProfile(values.profile), onProgress: (p) => meter.update(p.households, `${p.rows} rows`) }),
      );
      const seconds = meter.finish();
      console.log(`seeded ${households} households in ${seconds.toFixed(1)} s (${Math.round(households / seconds)} households/s)`);
      printCredentials(credentials, await writeDemoCredentials(config.dataDir, credentials));
      return 0;
    }
    case 'import': {
      const { values, positionals } = parseArgs({ args: rest, options: { firm: { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: true });
      if (!values.firm || positionals.length === 0) throw new UsageError('import needs --firm CODE and at least one file');
      return withDatabase(async (db) => {
        const firmId = await findFirmIdByCode(db, values.firm!);
        if (firmId === undefined) throw new UsageError(`no firm with code ${values.firm}`);
        return runImportCommand(db, firmId, positionals, { json: values.json });
      });
    }
    case 'users': {
      const [action, ...args] = rest;
      const { values } = parseArgs({ args, options: { firm: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' } } });
      if (!['deactivate', 'reactivate', 'reset-password'].includes(action ?? '') || !values.firm || !values.user) {
        throw new UsageError('users needs deactivate|reactivate|reset-password, --firm CODE and --user NAME');
      }
      const outcome = await withDatabase(async (db) => {
        const users = new UserAdminService(new AuthRepository(db.kysely), systemClock);
        const user = await users.userByName(values.firm!, values.user!);
        // The CLI acts as the firm's operator, not as one of its users: no self-deactivation guard applies.
        if (action === 'reset-password') return users.resetPassword(user.firm_id, user.id, values.password);
        return { user: await users.setActive({ firmId: user.firm_id, userId: 0 }, user.id, action === 'reactivate') };
      });
      console.log(`${outcome.user.userName}: ${outcome.user.isActive ? 'active' : 'deactivated, every token revoked'}`);
      if ('password' in outcome && outcome.password) console.log(`new password: ${outcome.password}`);
      return 0;
    }
    case 'worker': {
      const config = loadConfig();
      if (config.database.dialect !== 'postgres') {
        throw new UsageError('wealth worker needs PostgreSQL (DATABASE_URL); on SQLite, rebalances run inside wealth serve');
      }
      const log = pino({ level: config.logLevel });
      guardProcess(log);
      const db = openDatabase(config.database, { onConnectionError: (error) => log.error({ err: error }, 'database connection lost; the pool reconnects on the next query') });
      await migrateToLatest(db);
      const { queue, watchdog } = createTradingServices(config, db, systemClock, 'worker');
      queue.log = log;
      watchdog.log = log;
      await queue.start();
      watchdog.start();
      console.log(`worker ${process.pid} working rebalance chunks (concurrency ${config.workerConcurrency})`);
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        process.once(signal, () => {
          // Finish the chunk in hand; the others stay queued for the remaining workers.
          watchdog
            .stop()
            .then(() => queue.stop())
            .then(() => db.close())
            .then(
              () => process.exit(0),
              () => process.exit(1),
            );
        });
      }
      return -1;
    }
    default:
      console.log(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof UsageError) console.error(error.message);
    else console.error(error instanceof Error ? `error: ${error.message}` : error);
    process.exit(1);
  },
);
