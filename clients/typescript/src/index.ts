import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths as PlatformPaths } from './platform.js';
import type { paths as RebalancerPaths } from './rebalancer.js';

export type { PlatformPaths, RebalancerPaths };

/** Options of both clients: the service's root URL (e.g. `http://localhost:8080`) and a token. */
export interface WealthClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl: string;
  /** An access token, sent as `Authorization: Session <token>` (section "Using a token" of the reference). */
  token?: string;
}

function withToken(options: WealthClientOptions): ClientOptions {
  const { token, headers, ...rest } = options;
  return { ...rest, headers: { ...(token ? { authorization: `Session ${token}` } : {}), ...(headers as Record<string, string> | undefined) } };
}

/** The portfolio platform; paths carry their `/api` prefix, as the reference lists them. */
export const createPlatformClient = (options: WealthClientOptions) => createClient<PlatformPaths>(withToken(options));

/** The rebalancing application; paths carry their `/rebalancer` prefix. */
export const createRebalancerClient = (options: WealthClientOptions) => createClient<RebalancerPaths>(withToken(options));
