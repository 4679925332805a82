import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { downloadFileOperation } from '../modules/downloads/openapi.ts';

// The management API's OpenAPI document, generated from the contract's zod schemas, browsable at /api/docs.

export const OPENAPI_JSON_PATH = '/api/docs/json';

export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${PRODUCT_NAME} management API`,
          description:
            'Every call of the portal. Authenticate with a bearer access token from the sign-in provider. ' +
            "A collection's definition document (…/Definition calls) is described by its JSON Schema at " +
            '/api/docs/definition.schema.json.',
          version: '1.0.0',
        },
        servers: [{ url: app.config.publicUrl }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: (input) => {
        if (!input.url.startsWith('/api/') || input.url.startsWith('/api/docs')) {
          return { schema: { ...input.schema, hide: true }, url: input.url };
        }
        return jsonSchemaTransform(input);
      },
      // Routes whose body is not JSON have no contract schema: their entries are written by hand.
      transformObject: (input) => {
        if (!('openapiObject' in input)) return input.swaggerObject;
        const { openapiObject } = input;
        const paths = { ...openapiObject.paths, [downloadFileOperation.path]: downloadFileOperation.item };
        return { ...openapiObject, paths };
      },
    });
    // No CSP of its own (swagger-ui's allows any https style and an outside validator's images):
    // the documentation runs under the portal's policy, and never sends the document elsewhere.
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: false,
      validatorUrl: false,
      uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    });
  },
  { name: 'openapi', dependencies: ['config'] },
);
