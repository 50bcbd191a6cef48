import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.js';
import { DEFAULT_ROLES } from '../auth/privileges.js';
import { digest, hashPassword, newClientSecret } from '../auth/secrets.js';
import { generateFirmBook, generateHouseholdChunks } from './generator.js';
import type { ProfileName } from './profiles.js';
import { allocateTableIds, analyze, firmCodeTaken, inWriteTransaction, insertFirm, mayWriteUncheckedKeys, writeTables, type IdMap } from './repository.js';
import { ChunkPipeline } from './pipeline.js';
import { type FirmRows, rowCount } from './rows.js';

export interface DemoCredentials {
  firm: { id: number; code: string; name: string };
  users: Array<{ userName: string; password: string; kind: 'user' | 'api' | 'service'; role: string; description: string }>;
  partner: { clientId: number; clientSecret: string; redirectUris: string[] };
}

export interface SeedDemoOptions {
  households: number;
  seed: number;
  firmCode?: string;
  firmName?: string;
  /** YYYY-MM-DD; defaults to today (UTC). The book is a function of (seed, households, asOf). */
  asOf?: string;
  chunkSize?: number;
  /** Book profile (src/seed/profiles.ts); demo when absent. */
  profile?: ProfileName;
  /** Where the demo partner application may send browsers back to; the code page at the default address when absent. */
  redirectUris?: string[];
  /** Called after each committed chunk, for progress output and benchmarks. */
  onProgress?: (progress: { households: number; rows: number }) => void;
}

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';
export const DEMO_FIRM_CODE = 'DEMO';
export const FIRM_CODE = /^[A-Za-z0-9_-]{1,32}$/;
/**
 * The demo partner sends browsers back to the service's own "copy your code" page, so that the
 * authorization-code flow can be tried with a browser and curl and nothing else.
 */
export const partnerRedirectUris = (publicUrl: string, platformPrefix: string) => [`${publicUrl}${platformPrefix === '/' ? '' : platformPrefix}/oauth/callback`];
const DEFAULT_REDIRECT_URIS = partnerRedirectUris('http://localhost:8080', '/api');
const AUDIT_BY = 'seed';

const DEMO_USERS = [
  { suffix: 'admin', display: 'Platform Administrator', kind: 'user', role: 'Administrator', description: 'platform user with every privilege' },
  { suffix: 'readonly', display: 'Read-Only Analyst', kind: 'user', role: 'Read Only', description: 'can read the book, change nothing' },
  { suffix: 'advisor', display: 'Demo Advisor', kind: 'user', role: 'Advisor', description: 'edits portfolios and trade blocks' },
  { suffix: 'api', display: 'API Integration', kind: 'api', role: 'API Integration', description: 'API user for Basic login' },
  { suffix: 'rebalancer', display: 'Rebalancer Service', kind: 'service', role: 'Rebalancer Service', description: 'service account of the rebalancer' },
] as const;

/** 18 random bytes: 24 URL-safe characters, far past guessing, easy to paste. */
const newPassword = (): string => randomBytes(18).toString('base64url');

/** Chunk transactions a PostgreSQL seed keeps in flight: one per core of the machines we size for. */
const PG_CHUNK_WRITERS = 2;

/**
 * Creates a new firm with roles, one login of each kind, a partner application and a generated
 * book. The firm and its reference data commit first, then households commit a chunk at a time,
 * so a failure part-way leaves a firm with fewer households, never a half-written household.
 */
export async function seedDemoFirm(db: Db, options: SeedDemoOptions): Promise<DemoCredentials> {
  if (!Number.isInteger(options.households) || options.households < 0) {
    throw new Error(`households must be a whole number >= 0, got ${options.households}`);
  }
  if (!Number.isInteger(options.seed)) throw new Error(`seed must be an integer, got ${options.seed}`);
  const asOf = options.asOf ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(asOf))) throw new Error(`asOf must be YYYY-MM-DD, got ${asOf}`);
  const code = options.firmCode ?? DEMO_FIRM_CODE;
  if (!FIRM_CODE.test(code)) throw new Error(`firm code must be 1 to 32 letters, digits, - or _; got "${code}"`);
  // Each firm its own name, so that two seeded firms are told apart in every list and page.
  const name = options.firmName ?? (code === DEMO_FIRM_CODE ? 'Summit Wealth Partners (Demo)' : `Demo firm ${code}`);
  const stamp = `${asOf}T00:00:00.000Z`;
  const audit = { at: stamp, by: AUDIT_BY };
  const generatorOptions = { households: options.households, seed: options.seed, asOf, chunkSize: options.chunkSize, profile: options.profile };

  const redirectUris = options.redirectUris ?? DEFAULT_REDIRECT_URIS;
  const { tables: access, users } = await accessRows(code, stamp, redirectUris);
  const clientSecret = access.clientSecret;
  const book = generateFirmBook(generatorOptions);
  const { firmId, ids } = await inWriteTransaction(db, async (conn) => {
    // The unique index would refuse it too, but with a message nobody could act on.
    if (await firmCodeTaken(conn, code)) throw new Error(`a firm with code ${code} already exists; pass another firm code`);
    const id = await insertFirm(conn, { name, code, created_at: stamp });
    return { firmId: id, ids: await writeTables(conn, db.dialect, id, { ...access.rows, ...book }, {}, audit) };
  });

  let households = 0;
  let rows = 0;
  const firmIds: IdMap = ids;
  const uncheckedKeys = await mayWriteUncheckedKeys(db.kysely);
  const writing = new ChunkPipeline(db.dialect === 'postgres' ? PG_CHUNK_WRITERS : 1);
  for (const chunk of generateHouseholdChunks(generatorOptions, book)) {
    // SQLite has one writer; PostgreSQL's inserts are bound by its per-row work (foreign-key
    // triggers, indexes), which a second connection runs on another core. Ids are drawn here, in
    // seed order, before the writes overlap.
    const allocated = db.dialect === 'postgres' ? await allocateTableIds(db.kysely, chunk) : undefined;
    await writing.add(async () => {
      await inWriteTransaction(db, (conn) => writeTables(conn, db.dialect, firmId, chunk, firmIds, audit, allocated), { uncheckedKeys });
      households += chunk.clients.length;
      rows += rowCount(chunk);
      options.onProgress?.({ households, rows });
    });
  }
  await writing.drain();

  // PostgreSQL plans the rebalance read well only with statistics (see analyze).
  await analyze(db);

  const partnerId = ids.partner_apps?.[0];
  if (partnerId === undefined) throw new Error('partner application was not written');
  return {
    firm: { id: firmId, code, name },
    users,
    partner: { clientId: partnerId, clientSecret, redirectUris: [...redirectUris] },
  };
}

async function accessRows(code: string, stamp: string, redirectUris: string[]) {
  const roleNames = Object.keys(DEFAULT_ROLES);
  const roleIndex = (role: string) => roleNames.indexOf(role);
  const prefix = code.toLowerCase();
  const users: DemoCredentials['users'] = DEMO_USERS.map((u) => ({
    userName: `${prefix}.${u.suffix}`,
    password: newPassword(),
    kind: u.kind,
    role: u.role,
    description: u.description,
  }));
  const hashes = await Promise.all(users.map((u) => hashPassword(u.password)));
  const clientSecret = newClientSecret();
  const rows: Pick<FirmRows, 'roles' | 'role_privileges' | 'users' | 'partner_apps' | 'team_users'> = {
    roles: roleNames.map((name) => ({ name })),
    role_privileges: roleNames.flatMap((name, role_id) => (DEFAULT_ROLES[name] ?? []).map((privilege) => ({ role_id, privilege }))),
    users: DEMO_USERS.map((u, i) => ({
      user_name: users[i]?.userName as string,
      display_name: u.display,
      email: u.kind === 'user' ? `${u.suffix}@${prefix}.example` : null,
      kind: u.kind,
      password_hash: hashes[i] as string,
      role_id: roleIndex(u.role),
      is_active: 1,
      created_at: stamp,
    })),
    partner_apps: [
      { name: 'Demo Partner App', client_secret_hash: digest(clientSecret), redirect_uris: JSON.stringify(redirectUris), is_active: 1, created_at: stamp },
    ],
    // The administrator sits on every team and the advisor on the first: model_teams then has owners.
    team_users: [
      { team_id: 0, user_id: 0 },
      { team_id: 1, user_id: 0 },
      { team_id: 2, user_id: 0 },
      { team_id: 0, user_id: 2 },
    ],
  };
  return { tables: { rows, clientSecret }, users };
}

/** Writes the credentials where scripts and tests look for them (`DATA_DIR/demo-credentials.json`). */
/** The demo firm's file keeps the name the README uses; every other firm gets its own file. */
export const credentialsFileOf = (dataDir: string, firmCode: string) =>
  join(dataDir, firmCode === DEMO_FIRM_CODE ? DEMO_CREDENTIALS_FILE : `credentials-${firmCode}.json`);

/**
 * Checked before a firm is seeded: its passwords exist only in memory until this file is written,
 * so a seed that could not write it would lose them for good. The folder is created, the file must
 * not exist yet (another firm's credentials are never overwritten), and a probe write must succeed.
 */
export async function ensureCredentialsWritable(dataDir: string, firmCode: string): Promise<string> {
  const file = credentialsFileOf(dataDir, firmCode);
  try {
    await mkdir(dirname(file), { recursive: true });
    if (existsSync(file)) throw new Error(`${file} already exists (credentials of an earlier firm ${firmCode}); move it away or choose another firm code`);
    const probe = `${file}.probe`;
    await writeFile(probe, '', { mode: 0o600 });
    await unlink(probe);
  } catch (error) {
    throw new Error(`cannot write the firm's credentials in DATA_DIR (${dataDir}): ${(error as Error).message}. Nothing was seeded.`, { cause: error });
  }
  return file;
}

export async function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): Promise<string> {
  const file = credentialsFileOf(dataDir, credentials.firm.code);
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}
