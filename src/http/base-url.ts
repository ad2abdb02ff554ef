/** The scheme and host clients used to reach us, for absolute URLs we hand back (`next`, files). */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export function baseUrlOf(config: Config, req: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl;
  return `${req.protocol}://${req.host}`;
}
