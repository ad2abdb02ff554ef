/** Signed, expiring links to stored blobs (screenshots, PDFs). The signature is the credential. */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { BlobStore } from '../../store/blobs.js';

const params = z.object({ name: z.string().regex(/^[0-9a-f-]{36}\.[a-z]{2,4}$/) });
const query = z.looseObject({ expires: z.coerce.number().int(), sig: z.string().regex(/^[0-9a-f]{64}$/) });

export interface FileRouteDeps {
  blobs: BlobStore;
}

export async function fileRoutes(app: FastifyInstance, deps: FileRouteDeps): Promise<void> {
  app.get(
    '/v2/files/:name',
    { config: { public: true }, schema: { params, querystring: query, tags: ['files'] } },
    async (req, reply) => {
      const { name } = req.params as z.output<typeof params>;
      const { expires, sig } = req.query as z.output<typeof query>;
      const blob = await deps.blobs.open(name.slice(0, 36), expires, sig);
      if (!blob) throw new ApiError('FILE_NOT_FOUND');
      return reply
        .header('content-type', blob.mime)
        .header('content-length', blob.size)
        .header('cache-control', 'private, max-age=3600')
        .send(fs.createReadStream(blob.path));
    },
  );
}
