/**
 * The OpenAPI 3.1 document, generated from the same Zod schemas that validate requests, so the
 * published contract cannot drift from what the server enforces.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const isZod = (s: unknown): s is z.ZodType => typeof s === 'object' && s !== null && '_zod' in s;

const toJson = (s: unknown) => (isZod(s) ? z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) : s);

export const errorBodySchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});

export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Gleaner API', version, description: 'Self-hosted web-data API speaking the Firecrawl v2 interface.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url }) => {
      if (!schema) return { schema, url };
      const out: Record<string, unknown> = { ...schema };
      for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
        if (schema[part]) out[part] = toJson(schema[part]);
      }
      if (schema.response) {
        out.response = Object.fromEntries(Object.entries(schema.response as Record<string, unknown>).map(([code, s]) => [code, toJson(s)]));
      }
      return { schema: out as typeof schema, url };
    },
  });
  app.get('/v2/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
