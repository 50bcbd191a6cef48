import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { createTestBook } from '../../../test/support/book.js';
import { QUESTIONS } from './questionnaire.js';

/** A household with a registration, an account and positions: what "the portfolio" means in these tests. */
export async function createHousehold(db: Kysely<Database>, firmId: number, representativeId: number) {
  const book = await createTestBook(db, firmId, representativeId);
  await book.account();
  const { client_id } = await db.selectFrom('registrations').select('client_id').where('id', '=', book.registrationId).executeTakeFirstOrThrow();
  return client_id;
}

/** Every portfolio row of a household, to show that risk profiling leaves them alone. */
export async function householdSnapshot(db: Kysely<Database>, householdId: number) {
  const household = await db.selectFrom('clients').selectAll().where('id', '=', householdId).execute();
  const registrations = await db.selectFrom('registrations').selectAll().where('client_id', '=', householdId).orderBy('id').execute();
  const accounts = await db.selectFrom('accounts').selectAll().where('registration_id', 'in', [0, ...registrations.map((r) => r.id)]).orderBy('id').execute();
  const positions = await db.selectFrom('positions').selectAll().where('account_id', 'in', [0, ...accounts.map((a) => a.id)]).orderBy('account_id').orderBy('product_id').execute();
  return { household, registrations, accounts, positions };
}

/** The answer of the given points to every question (the nearest one where a question skips it). */
export function answersOfPoints(points: number): Record<string, string> {
  return Object.fromEntries(
    QUESTIONS.map((q) => [q.key, [...q.answers].sort((a, b) => Math.abs(a.points - points) - Math.abs(b.points - points) || a.points - b.points)[0]!.key]),
  );
}

export const surveyUrlPattern = /^http:\/\/[^/]+\/api\/Integrations\/RiskPartner\/Questionnaire\?token=[A-Za-z0-9_-]{43}$/;

/** The path and query of an absolute survey link, for app.inject. */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};
