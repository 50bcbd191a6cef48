import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { AuthRepository } from './platform/auth/repository.js';
import { OAuthService } from './platform/auth/oauth-service.js';
import { AuthService } from './platform/auth/service.js';
import { SignInThrottle } from './platform/auth/throttle.js';
import { VERBOSE_ENTITIES } from './platform/book/entities.js';
import { HoldingsService } from './platform/book/holdings-service.js';
import { BookRepository } from './platform/book/repository.js';
import { VerboseService } from './platform/book/service.js';
import type { Clock } from './shared/clock.js';

/** Everything the routes need, wired once per app; tests swap the clock. */
export function createServices(config: AppConfig, db: Db, clock: Clock) {
  const book = new BookRepository(db.kysely);
  const authRepository = new AuthRepository(db.kysely);
  const throttle = new SignInThrottle(authRepository, clock, config.signInMaxFailures, config.signInLockSeconds);
  const auth = new AuthService(authRepository, clock, config.accessTokenTtlSeconds, throttle);
  return {
    db,
    clock,
    auth,
    oauth: new OAuthService(authRepository, auth, throttle, clock, config.authorizationCodeTtlSeconds),
    verbose: VERBOSE_ENTITIES.map((entity) => ({ entity, service: new VerboseService(book, entity, clock) })),
    holdings: new HoldingsService(book),
  };
}

export type Services = ReturnType<typeof createServices>;
