import { withPostgresSchema } from './_databases.js';
import { seedDemoFirm } from '../src/seed/demo.js';
await withPostgresSchema('postgres://postgres@127.0.0.1:5432/test', 'exp', async ({ db }) => {
  const c = await seedDemoFirm(db, { households: 17143, seed: 7, firmCode: 'BENCH', profile: 'advisory' });
  console.log('firm', c.firm.id);
}, { keep: true });
