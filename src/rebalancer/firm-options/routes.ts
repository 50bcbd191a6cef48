import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { FirmOptions, FirmOptionsUpdate } from './schemas.js';
import type { FirmOptionsService } from './service.js';

const tags = ['Firm options'];
const path = '/v1/admin/firms/options';

/** The spec names the options but no path; see docs/decisions/rebalancer-source-client-reads.md. */
export const firmOptionRoutes: FastifyPluginAsyncTypebox<{ options: FirmOptionsService }> = async (app, { options }) => {
  app.get(
    path,
    { config: { privilege: Privilege.PortfolioRead }, schema: { tags, summary: 'The caller\'s firm options: multi trade block and custom trade block types', description: 'Reads the firm\'s options: whether an entity may carry several trade block details at once, and whether custom trade block types are on.', response: responses({ 200: FirmOptions }, [401, 403]) } },
    async (request) => options.get(principalOf(request).firmId),
  );
  app.put(
    path,
    {
      config: { privilege: Privilege.PlatformAdmin },
      schema: { tags, summary: 'Change the firm options (platform administrators); omitted options keep their value', description: 'Changes the firm\'s options; an omitted option keeps its value.', body: FirmOptionsUpdate, response: responses({ 200: FirmOptions }, [401, 403]) },
    },
    async (request) => options.update(principalOf(request).firmId, request.body),
  );
};
