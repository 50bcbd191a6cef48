import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';

/** Section 2.8: fixed lists; the ids are what restricted plans and the engine store. */
export const SELL_PRIORITIES = [
  { id: 1, description: 'Do Not Sell' },
  { id: 2, description: 'Hard To Sell' },
  { id: 3, description: 'Sell If No Gain' },
  { id: 4, description: 'Can Sell' },
  { id: 5, description: 'Sell To Target' },
  { id: 6, description: 'Priority Sell' },
] as const;

export const BUY_PRIORITIES = [
  { id: 1, description: 'Do Not Buy' },
  { id: 2, description: 'Hard To Buy' },
  { id: 3, description: 'Can Buy' },
  { id: 4, description: 'Buy To Target' },
  { id: 5, description: 'Priority Buy' },
  { id: 6, description: 'Preferred if held' },
] as const;

const PriorityList = Type.Array(Type.Object({ id: Type.Integer(), description: Type.String() }));

export const priorityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const schema = (summary: string) => ({ tags: ['Restricted plans'], summary, description: `${summary}: use their ids as the priorities of a restricted plan's securities.`, response: responses({ 200: PriorityList }, [401]) });
  const config = { tokenOnly: true };
  app.get('/v1/security/securityset/sellpriority', { config, schema: schema('The sell priorities a restricted plan security may take (id and name)') }, async () => SELL_PRIORITIES);
  app.get('/v1/security/securityset/buypriority', { config, schema: schema('The buy priorities a restricted plan security may take (id and name)') }, async () => BUY_PRIORITIES);
};
