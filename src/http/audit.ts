/** The API side of the audit log (billing/audit.ts): an event for each answered request that asks for one. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLog } from '../billing/audit.js';

type Body = Record<string, unknown> | undefined;

/** `auditMetadata` sits at the top level, or in `scrapeOptions` for a crawl. */
function auditMetadataOf(body: Body): { username: string } | undefined {
  const at = (o: unknown) => (o && typeof o === 'object' ? (o as { auditMetadata?: unknown }).auditMetadata : undefined);
  const m = at(body) ?? at(body?.scrapeOptions);
  return m && typeof m === 'object' && typeof (m as { username?: unknown }).username === 'string' ? (m as { username: string }) : undefined;
}

function targetUrls(body: Body): string[] {
  const urls: string[] = [];
  if (typeof body?.url === 'string') urls.push(body.url);
  if (Array.isArray(body?.urls)) urls.push(...body.urls.filter((u): u is string => typeof u === 'string'));
  return urls;
}

const isMonitorChange = (req: FastifyRequest) => req.method !== 'GET' && (req.routeOptions.url ?? '').startsWith('/v2/monitor');

/** Records audit events for requests once they are answered. */
export function installAudit(app: FastifyInstance, audit: AuditLog): void {
  app.addHook('onResponse', async (req, reply) => {
    const p = req.principal;
    if (!p) return;
    const body = req.body as Body;
    const meta = auditMetadataOf(body);
    if (!meta && !isMonitorChange(req)) return;
    try {
      await audit.record({
        teamId: p.teamId,
        keyId: p.keyId,
        username: meta?.username ?? null,
        action: `${req.method} ${req.routeOptions.url ?? req.url}`,
        targetUrls: targetUrls(body),
        outcome: String(reply.statusCode),
        credits: req.creditsCharged ?? 0,
      });
    } catch (e) {
      req.log.error({ err: e }, 'audit event not written');
    }
  });
}
