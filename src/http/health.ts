import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Db, isReachable } from '../db/database.js';
import { responses } from './problem.js';

const Status = Type.Object({ status: Type.String(), database: Type.Optional(Type.String()) });

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['Health'],
        summary: 'Health: the process answers and its database is reachable (503 while it is not)',
        description: '200 with `database: up` while the process answers and its database does; 503 while the database cannot be reached. For load balancers and monitors.',
        response: responses({ 200: Status, 503: Status }),
      },
    },
    async (_request, reply) => {
      if (await isReachable(db)) return { status: 'ok', database: 'up' };
      return reply.status(503).send({ status: 'unavailable', database: 'down' });
    },
  );
  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: { tags: ['Health'], summary: 'Readiness: the database answers',
        description: '200 once the database answers, naming which one (sqlite or postgres); 503 while it does not.', response: responses({ 200: Status, 503: Status }) },
    },
    async (_request, reply) => {
      if (await isReachable(db)) return { status: 'ready', database: db.dialect };
      return reply.status(503).send({ status: 'unavailable', database: db.dialect });
    },
  );
};
