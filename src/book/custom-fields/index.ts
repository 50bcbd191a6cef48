import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import { CustomFieldsRepository } from './repository.js';
import { CustomFieldDefinitions } from './service.js';
import { CustomFieldValues } from './values.js';

export function createCustomFieldServices(db: Kysely<Database>, clock: Clock) {
  return {
    customFieldDefinitions: new CustomFieldDefinitions(new CustomFieldsRepository(db), clock),
    /** Handed to every verbose entity: values are read and written with the records. */
    customFieldValues: new CustomFieldValues(clock),
  };
}
