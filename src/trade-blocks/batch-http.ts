import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { type Problem, responses } from '../http/problem.js';
import { TradeBlockResult } from './schemas.js';

const problemRef = Type.Unsafe<Problem>(Type.Ref('Problem'));

/** 200 all succeeded, 207 some, 400 none; the body is the batch result in every case. */
export function sendBatch(reply: FastifyReply, result: TradeBlockResult) {
  const status = result.failedTradeBlocks.length === 0 ? 200 : result.successfulTradeBlocks.length === 0 ? 400 : 207;
  return reply.status(status).send(result);
}

/** The batch routes answer 400 with the batch result when every item failed, or a problem for a bad request. */
export const batchResponses = (errors: number[]) => ({
  ...responses({ 200: TradeBlockResult, 207: TradeBlockResult }, errors),
  400: Type.Union([TradeBlockResult, problemRef]),
});

