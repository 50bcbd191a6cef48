import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  DeleteQueryNode,
  type Dialect,
  type DialectAdapter,
  type Driver,
  InsertQueryNode,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type TransactionSettings,
  UpdateQueryNode,
} from 'kysely';
import { UNANNOUNCED_TABLES } from './migrations/0031_data_change_notifications.js';

/**
 * A dialect that counts the writes this process commits through Kysely (`changesData`): the count moves on after
 * a transaction that wrote commits, and after a write outside any transaction. What a process
 * cached from the database before its own write is then known stale at once, without waiting for
 * the database to tell every process (src/db/data-changes.ts).
 */
export class ObservedDialect implements Dialect {
  private committed = 0;

  constructor(private readonly inner: Dialect) {}

  /** How many writes this process has committed (or may have: a failed commit counts too). */
  writes(): number {
    return this.committed;
  }

  createDriver(): Driver {
    return new ObservedDriver(this.inner.createDriver(), () => void this.committed++);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

const UNSEEN = new Set<string>(UNANNOUNCED_TABLES);

/**
 * Whether a statement may change what a cached answer reads: a write, unless it names one of the
 * sign-in and token tables, which no cached answer reads and which a login or a token refresh
 * writes (their triggers are left out for the same reason, migration 0031). A statement whose
 * table is not plain to see counts as a change.
 */
export function changesData(query: CompiledQuery): boolean {
  if (!mayWrite(query)) return false;
  const table = writtenTable(query.query);
  return table === undefined || !UNSEEN.has(table);
}

function writtenTable(node: RootOperationNode): string | undefined {
  const target = InsertQueryNode.is(node) ? node.into : UpdateQueryNode.is(node) ? node.table : DeleteQueryNode.is(node) && node.from.froms.length === 1 ? node.from.froms[0] : undefined;
  return target && TableNode.is(target) ? target.table.identifier.name : undefined;
}

/** Whether a statement may change data. Raw SQL counts as a write unless it plainly reads. */
export function mayWrite(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (kind === 'SelectQueryNode') return false;
  if (kind !== 'RawNode') return true;
  // copyRows hands the driver a stream in place of the text: a write.
  if (typeof query.sql !== 'string') return true;
  return !/^\s*\(?\s*select\b/i.test(query.sql) || /\b(insert|update|delete|merge|truncate)\b/i.test(query.sql);
}

class ObservedConnection implements DatabaseConnection {
  /** Inside a transaction: its writes count when it commits. */
  inTransaction = false;
  wrote = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly committed: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!changesData(query)) return this.inner.executeQuery<R>(query);
    this.wrote = true;
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      if (!this.inTransaction) this.committed();
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (changesData(query)) {
      this.wrote = true;
      if (!this.inTransaction) this.committed();
    }
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class ObservedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly committed: () => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ObservedConnection(await this.inner.acquireConnection(), this.committed);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const observed = connection as ObservedConnection;
    await this.inner.beginTransaction(observed.inner, settings);
    observed.inTransaction = true;
    observed.wrote = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const observed = connection as ObservedConnection;
    try {
      await this.inner.commitTransaction(observed.inner);
    } finally {
      observed.inTransaction = false;
      if (observed.wrote) this.committed();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const observed = connection as ObservedConnection;
    try {
      await this.inner.rollbackTransaction(observed.inner);
    } finally {
      observed.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.savepoint!((connection as ObservedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    await this.inner.rollbackToSavepoint!((connection as ObservedConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    await this.inner.releaseSavepoint!((connection as ObservedConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as ObservedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
