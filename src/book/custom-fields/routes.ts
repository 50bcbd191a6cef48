import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import { Privilege } from '../../auth/privileges.js';
import { DefinitionInput, DefinitionParams, DefinitionQuery, DefinitionRecord, DeleteResult } from './schemas.js';
import type { CustomFieldDefinitions } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const admin = { privilege: Privilege.PlatformAdmin };
const tags = ['Custom fields'];
const base = '/Portfolio/UserDefinedFields/Definitions';

/**
 * Managing custom-field definitions (not in the spec). The values themselves are read and written
 * with the records: `GET|PUT /Portfolio/{entity}/Verbose/{key}?expand=userdefinedfields`.
 */
export const customFieldRoutes: FastifyPluginAsyncTypebox<{ definitions: CustomFieldDefinitions }> = async (app, { definitions }) => {
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        summary: 'The firm\'s custom-field definitions, by level and sequence; canEdit is the caller\'s',
        description: 'Every custom field your firm has defined, grouped by level (household, registration, account, product) in display order. canEdit says whether you may change values of that field.',
        querystring: DefinitionQuery,
        response: responses({ 200: Type.Array(DefinitionRecord) }, [401, 403]),
      },
    },
    async (request) => definitions.list(principalOf(request), request.query.entity),
  );
  app.get(
    `${base}/:definitionId`,
    { config: read, schema: { tags, summary: 'One definition',
        description: 'One custom-field definition with its type, options and level. 404 when your firm has no such definition.', params: DefinitionParams, response: responses({ 200: DefinitionRecord }, [401, 403, 404]) } },
    async (request) => definitions.get(principalOf(request), request.params.definitionId),
  );
  app.post(
    base,
    { config: admin, schema: { tags, summary: 'Define a custom field (platform administrators)',
        description: 'Adds a custom field at one level: its name, type (Text, Number, Date, Boolean or a List of options) and display order. Values are then written with the records themselves.', body: DefinitionInput, response: responses({ 200: DefinitionRecord }, [401, 403]) } },
    async (request) => definitions.create(principalOf(request), request.body),
  );
  app.put(
    `${base}/:definitionId`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change a definition; its level is fixed, and a type or options change must still fit every stored value',
        description: 'Renames a custom field or changes its type, options or order. The level cannot change, and a new type or option list is refused with a 400 when a value already stored would no longer fit.',
        params: DefinitionParams,
        body: DefinitionInput,
        response: responses({ 200: DefinitionRecord }, [401, 403, 404]),
      },
    },
    async (request) => definitions.update(principalOf(request), request.params.definitionId, request.body),
  );
  app.delete(
    `${base}/:definitionId`,
    {
      config: admin,
      schema: { tags, summary: 'Remove a definition and every value stored for it',
        description: 'Deletes the custom field and every value records hold for it, in one step.', params: DefinitionParams, response: responses({ 200: DeleteResult }, [401, 403, 404]) },
    },
    async (request) => definitions.remove(principalOf(request), request.params.definitionId),
  );
};
