// Read your writes on any node: a write's answer goes out only once every process serving the
// database has heard of it, so that a client reading through another node behind the same load
// balancer right after is not answered from that node's response cache as it stood before; the
// same for an answer that tells of other processes' writes (a batch its workers finished)
// (docs/decisions/response-cache.md). On SQLite every process reads the file's data_version on its
// next request, and there is nothing to wait for.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataChanges } from '../db/data-changes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer tells of writes other processes made (a batch its workers finished): it goes out
     * once every process serving the database has heard of everything committed before it.
     */
    revealsOthersWrites?: boolean;
  }
  interface FastifyRequest {
    /** This process's write mark as a request that may write reached its handler. */
    writesBefore: string | null;
  }
}

/** Methods that change nothing the API lets them change: their own writes are not waited for. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function answerWritesOnceHeard(app: FastifyInstance, changes: DataChanges): void {
  app.decorateRequest('writesBefore', null);
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (!READS.has(request.method)) request.writesBefore = changes.writeMark() ?? null;
    done();
  });
  // Any write of this process during the request (another request's too: waiting for it is
  // harmless) holds the answer until every listener answered the barrier that follows it. A
  // barrier sent now follows every commit before it, whoever made it, so the same barrier serves
  // a route that tells of other processes' writes.
  app.addHook('onSend', (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const before = request.writesBefore;
    const othersToo = request.routeOptions.config.revealsOthersWrites === true;
    if (!othersToo && (before === null || changes.writeMark() === before)) return done(null, payload);
    void changes.heardEverywhere(othersToo).then(() => done(null, payload));
  });
}
