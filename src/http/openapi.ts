import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/**
 * Each application scope gets its own OpenAPI document, built from the route schemas of that
 * scope only (the swagger plugin collects routes through the scope's onRoute hook).
 */
export async function registerOpenApi(scope: FastifyInstance, info: { title: string; description: string }) {
  await scope.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { ...info, version: '1.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Session <access token>' },
        },
      },
      security: [{ session: [] }],
    },
  });
  scope.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => scope.swagger());
}
