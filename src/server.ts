import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { seedDemoHistory } from './performance/demo-history.js';
import type { AppConfig } from './config.js';
import { type Db, migrateToLatest, openDatabase } from './db/database.js';
import { DEMO_CREDENTIALS_FILE, DEMO_FIRM_CODE, type DemoCredentials, ensureCredentialsWritable, partnerRedirectUris, seedDemoFirm, writeDemoCredentials } from './seed/demo.js';
import { countFirms } from './book/firms/repository.js';
import { guardProcess } from './shared/logger.js';

export const STARTUP_DEMO_HOUSEHOLDS = 40;

export interface StartedServer {
  app: FastifyInstance;
  db: Db;
  address: string;
  /** Set when this start seeded the demo firm (the only time its passwords are known). */
  demo?: { credentials: DemoCredentials; file: string };
  /** Where an earlier start wrote the demo credentials, if it did. */
  demoFile?: string;
  stop(): Promise<void>;
}

/**
 * Opens the database, migrates it, seeds a demo firm into an empty one, and listens.
 * SIGTERM/SIGINT drain in-flight requests before the database closes.
 */
export async function startServer(config: AppConfig): Promise<StartedServer> {
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  let demo: StartedServer['demo'];
  if (config.seedDemoOnEmpty && (await countFirms(db)) === 0) {
    // Before anything is committed: the passwords are lost if the file cannot be written after.
    await ensureCredentialsWritable(config.dataDir, DEMO_FIRM_CODE);
    const credentials = await seedDemoFirm(db, {
      households: STARTUP_DEMO_HOUSEHOLDS,
      seed: 1,
      redirectUris: partnerRedirectUris(config.publicUrl, config.platformPrefix),
    });
    // Three years of values and prices, so the first Performance call answers a full period table.
    await seedDemoHistory(db.kysely, credentials.firm.id, { asOf: new Date().toISOString().slice(0, 10), seed: 1 });
    demo = { credentials, file: await writeDemoCredentials(config.dataDir, credentials) };
  }
  const app = await buildApp({ config, db });
  guardProcess(app.log);
  const address = await app.listen({ port: config.port, host: config.host });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const force = setTimeout(() => {
        app.log.warn(`requests still running after ${config.shutdownGraceMs} ms; closing anyway`);
        app.server.closeAllConnections();
      }, config.shutdownGraceMs);
      force.unref();
      await app.close();
      clearTimeout(force);
      await db.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal} received: draining requests`);
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  const demoFile = join(config.dataDir, DEMO_CREDENTIALS_FILE);
  return { app, db, address, demo, demoFile: existsSync(demoFile) ? demoFile : undefined, stop };
}
