/**
 * What background work needs of a logger: pino's (and Fastify's) shape. Components start with a
 * stderr fallback so that a test or a script building one alone still sees its errors; the app
 * hands them its own logger when it starts them (src/background.ts).
 */
export interface Logger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export const stderrLogger: Logger = {
  error: (details, message) => console.error(message, details),
  warn: (details, message) => console.warn(message, details),
  info: () => undefined,
};

/**
 * A long-running process (server, worker) logs a stray rejection instead of exiting on it: the
 * work it holds is in the database and is retried, and exiting would take every other request and
 * chunk down with it. Errors that leave the process unusable still end it (uncaughtException).
 */
export function guardProcess(log: Logger) {
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection (logged; the process keeps running)'));
}
