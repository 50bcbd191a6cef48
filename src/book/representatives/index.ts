import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { RepresentativesRepository } from './repository.js';
import { RepresentativesService } from './service.js';

export function createRepresentativeServices(db: Kysely<Database>) {
  return { representatives: new RepresentativesService(new RepresentativesRepository(db)) };
}
