import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { runImportCommand } from './import/index.js';
import { DEMO_FIRM_CODE, type DemoCredentials, ensureCredentialsWritable, FIRM_CODE, partnerRedirectUris, seedDemoFirm, writeDemoCredentials } from './seed/demo.js';
import { parseProfile } from './seed/profiles.js';
import { findFirmIdByCode } from './book/firms/repository.js';
import { createServices } from './services.js';
import { backgroundWork } from './background.js';
import { startServer } from './server.js';
import { systemClock } from './shared/clock.js';
import { guardProcess } from './shared/logger.js';
import { progress } from './shared/progress.js';
import { runValueCommand } from './performance/command.js';



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

const wholeNumber = (name: string) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return n;
};

function program(): Command {
  const cli = new Command('wealth')
    .description('The wealth platform: serve its two applications, manage its database, seed and import books.\nConfiguration comes from the environment (PORT, DATA_DIR, DATABASE_URL, LOG_LEVEL, …; see README.md).')
    .showSuggestionAfterError()
    .exitOverride();

  cli
    .command('serve')
    .description('serve the portfolio platform and the rebalancing application (PORT, default 8080); seeds a demo firm into an empty database')
    .addOption(new Option('--app <app>', 'which application this process serves').choices(['all', 'platform', 'rebalancer']).default('all'))
    .action(async (options: { app: string }) => {
      const config = loadConfig({ ...process.env, WEALTH_APPS: options.app });
      const server = await startServer(config);
      if (server.demo) printCredentials(server.demo.credentials, server.demo.file);
      else if (server.demoFile) console.log(`Demo logins and partner credentials: ${server.demoFile}`);
      const base = server.address.replace('0.0.0.0', 'localhost');
      console.log(`Start page:               ${base}/`);
      if (config.apps !== 'rebalancer') console.log(`Portfolio platform:       ${base}${config.platformPrefix}  (docs: ${base}${config.platformPrefix}/docs)`);
      if (config.apps !== 'platform') console.log(`Rebalancing application:  ${base}${config.rebalancerPrefix}  (docs: ${base}${config.rebalancerPrefix}/docs)`);
      keepRunning = true;
    });

  cli
    .command('migrate')
    .description('bring the database schema up to date')
    .action(async () => {
      const config = loadConfig();
      const db = openDatabase(config.database);
      try {
        const applied = await migrateToLatest(db);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
      } finally {
        await db.close();
      }
    });

  cli
    .command('seed')
    .description('generate a firm with a realistic book and print its logins (each firm gets its own credentials file in DATA_DIR)')
    .requiredOption('--demo', 'generate a demo firm (the only kind of seed)')
    .option('--households <n>', 'households to generate', wholeNumber('--households'), 1000)
    .option('--seed <n>', 'random seed: the same seed gives the same book', wholeNumber('--seed'), 1)
    .option('--firm-code <code>', 'the new firm\'s code: 1 to 32 letters, digits, - or _', DEMO_FIRM_CODE)
    .addOption(new Option('--profile <profile>', 'book shape: demo (about 7 positions an account), advisory (20-30), direct-indexing (300-500)').choices(['demo', 'advisory', 'direct-indexing']).default('demo'))
    .action(async (options: { households: number; seed: number; firmCode: string; profile: string }) => {
      const config = loadConfig();
      if (!FIRM_CODE.test(options.firmCode)) throw new UsageError(`--firm-code must be 1 to 32 letters, digits, - or _; got "${options.firmCode}"`);
      await ensureCredentialsWritable(config.dataDir, options.firmCode);
      const meter = progress({ label: 'seeding', unit: 'households', total: options.households });
      const credentials = await withDatabase((db) =>
        seedDemoFirm(db, {
          households: options.households,
          seed: options.seed,
          firmCode: options.firmCode,
          profile: parseProfile(options.profile),
          redirectUris: partnerRedirectUris(config.publicUrl, config.platformPrefix),
          onProgress: (p) => meter.update(p.households, `${p.rows} rows`),
        }),
      );
      const seconds = meter.finish();
      console.log(`seeded ${options.households} households in ${seconds.toFixed(1)} s (${Math.round(options.households / seconds)} households/s)`);
      printCredentials(credentials, await writeDemoCredentials(config.dataDir, credentials));
    });

  cli
    .command('import')
    .description('load a book from JSON or CSV files into a firm, all or nothing (docs/import.md); each bad row is reported as FILE:LINE: FIELD: message')
    .argument('<files...>', 'the files to load, in any order')
    .requiredOption('--firm <code>', 'the code of the firm to load into')
    .option('--json', 'report problems as a JSON array on stdout, for machines')
    .action(async (files: string[], options: { firm: string; json?: boolean }) => {
      exitCode = await withDatabase(async (db) => {
        const firmId = await findFirmIdByCode(db, options.firm);
        if (firmId === undefined) throw new UsageError(`no firm with code ${options.firm}`);
        return runImportCommand(db, firmId, files, { json: options.json });
      });
    });

  cli
    .command('value')
    .description('store every account\'s value at a date\'s close from its positions, cash and prices, with the day\'s flows, fees and income; again for a date replaces its rows')
    .option('--date <YYYY-MM-DD>', 'the date to value (default: today, UTC)')
    .option('--firm <code>', 'only this firm (default: every firm)')
    .action(async (options: { date?: string; firm?: string }) => {
      exitCode = await withDatabase((db) => runValueCommand(createServices(loadConfig(), db, systemClock).valuation, options));
    });

  const users = cli.command('users').description('take a user\'s access away (every token revoked at once), give it back, or set a password');
  for (const [name, description] of [
    ['deactivate', 'stop the user signing in and revoke every token the user holds'],
    ['reactivate', 'let a deactivated user sign in again'],
    ['reset-password', 'set a new password (generated when --password is omitted) and end the user\'s sessions'],
  ] as const) {
    const command = users.command(name).description(description).requiredOption('--firm <code>', 'the firm\'s code').requiredOption('--user <name>', 'the user name');
    if (name === 'reset-password') command.option('--password <password>', 'the new password (at least 12 characters)');
    command.action(async (options: { firm: string; user: string; password?: string }) => {
      const outcome = await withDatabase(async (db) => {
        const admin = createServices(loadConfig(), db, systemClock).users;
        const user = await admin.userByName(options.firm, options.user);
        // The CLI acts as the firm's operator, not as one of its users: no self-deactivation guard applies.
        if (name === 'reset-password') return admin.resetPassword(user.firm_id, user.id, options.password);
        return { user: await admin.setActive({ firmId: user.firm_id, userId: 0 }, user.id, name === 'reactivate') };
      });
      console.log(`${outcome.user.userName}: ${outcome.user.isActive ? 'active' : 'deactivated, every token revoked'}`);
      if ('password' in outcome && outcome.password) console.log(`new password: ${outcome.password}`);
    });
  }

  cli
    .command('worker')
    .description('work rebalance chunks from the PostgreSQL queue; run any number beside wealth serve')
    .action(async () => {
      const config = loadConfig();
      if (config.database.dialect !== 'postgres') {
        throw new UsageError('wealth worker needs PostgreSQL (DATABASE_URL); on SQLite, rebalances run inside wealth serve');
      }
      const log = pino({ level: config.logLevel });
      guardProcess(log);
      const db = openDatabase(config.database, { onConnectionError: (error) => log.error({ err: error }, 'database connection lost; the pool reconnects on the next query') });
      await migrateToLatest(db);
      const background = backgroundWork(createServices(config, db, systemClock, 'worker'), log, 'worker');
      await background.start();
      console.log(`worker ${process.pid} working rebalance chunks (concurrency ${config.workerConcurrency})`);
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        process.once(signal, () => {
          // Finish the chunk in hand; the others stay queued for the remaining workers.
          background
            .stop()
            .then(() => db.close())
            .then(
              () => process.exit(0),
              () => process.exit(1),
            );
        });
      }
      keepRunning = true;
    });

  return cli;
}

/** Set by a command that keeps the process alive (serve, worker). */
let keepRunning = false;
/** Set by a command whose outcome is not plain success (import with problems). */
let exitCode = 0;

async function main(argv: string[]): Promise<number> {
  const cli = program();
  if (argv.length === 0) {
    // A bare `wealth` is a mistake, not a request for help: show it, and say so in the exit code.
    console.error(cli.helpInformation());
    return 2;
  }
  try {
    await cli.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; misuse was already reported in one line.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
  return keepRunning ? -1 : exitCode;
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
