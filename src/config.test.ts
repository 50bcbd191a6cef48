import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to SQLite under ./data, port 8080 and the two documented prefixes', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.platformPrefix).toBe('/api');
    expect(config.rebalancerPrefix).toBe('/rebalancer');
    expect(config.database).toMatchObject({ dialect: 'sqlite' });
    expect(config.database.dialect === 'sqlite' && config.database.file.endsWith('data/wealth.sqlite')).toBe(true);
  });

  it('chooses PostgreSQL from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ dialect: 'postgres', url: 'postgres://u@h:5432/db', poolSize: 10 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ PLATFORM_PREFIX: 'api' }, 'PLATFORM_PREFIX'],
    [{ WEALTH_APPS: 'both' }, 'WEALTH_APPS'],
    [{ SEED_DEMO_ON_EMPTY: 'maybe' }, 'SEED_DEMO_ON_EMPTY'],
    [{ ACCESS_TOKEN_TTL_SECONDS: '5' }, 'ACCESS_TOKEN_TTL_SECONDS'],
    [{ PUBLIC_URL: 'wealth.example' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://wealth.example/api' }, 'PUBLIC_URL'],
  ])('stops on a wrong value and names the variable: %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^configuration: ${variable} `));
  });

  it('takes the public address from PUBLIC_URL, else localhost on the port', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://Wealth.Example/' }).publicUrl).toBe('https://wealth.example');
  });

  it('normalises a trailing slash on a prefix', () => {
    expect(loadConfig({ PLATFORM_PREFIX: '/platform/' }).platformPrefix).toBe('/platform');
  });
});
