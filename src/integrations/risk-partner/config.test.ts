import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('risk partner configuration', () => {
  it('defaults to the built-in partner', () => {
    expect(loadConfig({}).riskPartner).toEqual({ kind: 'builtin' });
    expect(loadConfig({ RISK_PARTNER: 'builtin', RISK_PARTNER_URL: 'not used' }).riskPartner).toEqual({ kind: 'builtin' });
  });

  it('takes an HTTP partner with its URL (trailing slash dropped), API key and timeout', () => {
    expect(loadConfig({ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'https://risk.example/api/', RISK_PARTNER_API_KEY: 'k' }).riskPartner).toEqual({
      kind: 'http',
      url: 'https://risk.example/api',
      apiKey: 'k',
      timeoutMs: 5000,
    });
    expect(loadConfig({ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'http://127.0.0.1:9000', RISK_PARTNER_API_KEY: 'k', RISK_PARTNER_TIMEOUT_MS: '250' }).riskPartner).toMatchObject({ url: 'http://127.0.0.1:9000', timeoutMs: 250 });
  });

  it.each([
    [{ RISK_PARTNER: 'riskalyze' }, 'RISK_PARTNER'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_API_KEY: 'k' }, 'RISK_PARTNER_URL'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'risk.example', RISK_PARTNER_API_KEY: 'k' }, 'RISK_PARTNER_URL'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'ftp://risk.example', RISK_PARTNER_API_KEY: 'k' }, 'RISK_PARTNER_URL'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'https://risk.example/?key=1', RISK_PARTNER_API_KEY: 'k' }, 'RISK_PARTNER_URL'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'https://risk.example' }, 'RISK_PARTNER_API_KEY'],
    [{ RISK_PARTNER: 'http', RISK_PARTNER_URL: 'https://risk.example', RISK_PARTNER_API_KEY: 'k', RISK_PARTNER_TIMEOUT_MS: 'soon' }, 'RISK_PARTNER_TIMEOUT_MS'],
  ])('stops on a wrong value and names the variable: %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^configuration: ${variable} `));
  });
});
