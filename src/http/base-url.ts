/** The scheme and host clients used to reach us, for absolute URLs we hand back (`next`, files). */
import type { FastifyRequest } from 'fastify';

/** `publicUrl` is the operator's PUBLIC_URL, when set: it wins over what the request says. */
export function baseUrlOf(publicUrl: string | undefined, req: FastifyRequest): string {
  if (publicUrl) return publicUrl;
  return `${req.protocol}://${req.host}`;
}
