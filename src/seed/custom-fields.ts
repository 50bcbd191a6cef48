import { CUSTOM_FIELDS, type DemoCustomField } from './demo-data.js';
import { addDays } from './dates.js';
import type { Random } from './random.js';
import type { FieldValueRow, FirmRows } from './rows.js';

type Level = DemoCustomField['entity'];
const TABLE_OF: Record<Level, FieldValueRow['entity_table']> = {
  Representative: 'representatives',
  Household: 'clients',
  Registration: 'registrations',
  Account: 'accounts',
  Product: 'products',
};

export function customFieldDefinitions(): FirmRows['user_defined_definitions'] {
  return CUSTOM_FIELDS.map((f, i) => ({
    entity: f.entity,
    name: f.name,
    category: f.category,
    type: f.type,
    code: f.code,
    sequence: (i + 1) * 10,
    options: JSON.stringify(f.options ?? []),
    security_code: f.securityCode ?? null,
  }));
}

/**
 * Draws custom-field values record by record from its own random stream, so the rest of the
 * book does not shift, and values do not depend on the chunk size.
 */
export class FieldValueDrawer {
  private readonly byLevel = new Map<Level, { definition: number; field: DemoCustomField }[]>();
  private readonly dates = new Map<number, string>();

  constructor(
    private readonly rng: Random,
    private readonly asOf: string,
  ) {
    CUSTOM_FIELDS.forEach((field, definition) => {
      const fields = this.byLevel.get(field.entity) ?? [];
      fields.push({ definition, field });
      this.byLevel.set(field.entity, fields);
    });
  }

  /** Values of the level's fields for records [from, to) of the level's table. */
  draw(level: Level, from: number, to: number, out: FieldValueRow[]): void {
    const fields = this.byLevel.get(level) ?? [];
    const entity_table = TABLE_OF[level];
    for (let entity_id = from; entity_id < to; entity_id++) {
      for (const { definition, field } of fields) {
        if (this.rng.chance(field.share)) out.push({ definition_id: definition, entity_table, entity_id, value: this.value(field) });
      }
    }
  }

  private value(field: DemoCustomField): string {
    const { rng } = this;
    const values = field.values;
    switch (values.kind) {
      case 'pick':
        return rng.pick(values.from);
      case 'number':
        return String(rng.int(values.min / values.step, values.max / values.step) * values.step);
      case 'boolean':
        return rng.chance(0.5) ? 'true' : 'false';
      case 'date': {
        const days = rng.int(values.fromDays, values.toDays);
        let date = this.dates.get(days);
        if (date === undefined) this.dates.set(days, (date = addDays(this.asOf, days)));
        return date;
      }
    }
  }
}
