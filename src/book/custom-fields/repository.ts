import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UserDefinedDefinitionTable, UserDefinedValueTable } from '../../db/schema.js';
import { idChunks, readByIds } from '../../db/id-chunks.js';

export type DefinitionRow = Selectable<UserDefinedDefinitionTable>;
export type ValueRow = Pick<Selectable<UserDefinedValueTable>, 'id' | 'definition_id' | 'entity_id' | 'value'>;
type NewValue = Omit<Selectable<UserDefinedValueTable>, 'id'>;

// SQLite binds at most 32,766 values per statement; a value row binds eight.
const VALUES_PER_STATEMENT = 2000;

export class CustomFieldsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: CustomFieldsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new CustomFieldsRepository(trx)));
  }

  /** A level's definitions (every level's when `level` is undefined) in the order screens show them. */
  definitions(firmId: number, level?: string): Promise<DefinitionRow[]> {
    let query = this.db.selectFrom('user_defined_definitions').selectAll().where('firm_id', '=', firmId);
    if (level !== undefined) query = query.where('entity', '=', level);
    return query.orderBy('entity').orderBy('sequence').orderBy('id').execute();
  }

  definition(firmId: number, id: number): Promise<DefinitionRow | undefined> {
    return this.db.selectFrom('user_defined_definitions').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  /** A definition of another id holding `code` at the level, if any. */
  async codeHolder(firmId: number, level: string, code: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('user_defined_definitions')
      .select('id')
      .where('firm_id', '=', firmId)
      .where('entity', '=', level)
      .where('code', '=', code)
      .executeTakeFirst();
    return row?.id;
  }

  async insertDefinition(row: Omit<DefinitionRow, 'id'>): Promise<number> {
    const { id } = await this.db.insertInto('user_defined_definitions').values(row).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async updateDefinition(firmId: number, id: number, columns: Partial<Omit<DefinitionRow, 'id' | 'firm_id'>>) {
    await this.db.updateTable('user_defined_definitions').set(columns).where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  /** Removes the definition with its values; the number of values removed. */
  async deleteDefinition(firmId: number, id: number): Promise<number> {
    const values = await this.db.deleteFrom('user_defined_values').where('firm_id', '=', firmId).where('definition_id', '=', id).executeTakeFirst();
    await this.db.deleteFrom('user_defined_definitions').where('firm_id', '=', firmId).where('id', '=', id).execute();
    return Number(values.numDeletedRows);
  }

  /** The distinct stored values of a definition: what a change of its type or options must still accept. */
  async distinctValues(firmId: number, definitionId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('user_defined_values')
      .select('value')
      .distinct()
      .where('firm_id', '=', firmId)
      .where('definition_id', '=', definitionId)
      .execute();
    return rows.map((r) => r.value);
  }

  async values(firmId: number, definitionIds: number[], entityIds: number[]): Promise<ValueRow[]> {
    if (definitionIds.length === 0 || entityIds.length === 0) return [];
    return readByIds(this.db, [...new Set(entityIds)], (slice) =>
      this.db
        .selectFrom('user_defined_values')
        .select(['id', 'definition_id', 'entity_id', 'value'])
        .where('firm_id', '=', firmId)
        .where('entity_id', 'in', slice)
        .where('definition_id', 'in', definitionIds)
        .execute(),
    );
  }

  /** Inserts new values and overwrites stored ones of the same record and definition (their ids stay). */
  async upsertValues(rows: NewValue[]) {
    for (let start = 0; start < rows.length; start += VALUES_PER_STATEMENT) {
      await this.db
        .insertInto('user_defined_values')
        .values(rows.slice(start, start + VALUES_PER_STATEMENT))
        .onConflict((oc) =>
          oc.columns(['entity_id', 'definition_id']).doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            edited_at: eb.ref('excluded.edited_at'),
            edited_by: eb.ref('excluded.edited_by'),
          })),
        )
        .execute();
    }
  }

  async deleteValues(firmId: number, ids: number[]) {
    for (const slice of idChunks(this.db, ids)) {
      await this.db.deleteFrom('user_defined_values').where('firm_id', '=', firmId).where('id', 'in', slice).execute();
    }
  }
}
