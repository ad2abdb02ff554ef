/**
 * Builds the Fastify application from the services it serves. Separate from `listen()` so tests
 * can build the whole server and talk to it in process or on an ephemeral port. Each route group
 * is a plugin given only the services it uses.
 */
import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { BrowserSessions } from '../browser/sessions.js';
import type { Config } from '../config.js';
import type { Document } from '../core/document.js';
import type { MapService } from '../crawl/map.js';
import type { CrawlService } from '../crawl/service.js';
import type { ModelProvider } from '../llm/provider.js';
import type { MonitorService } from '../monitor/service.js';
import type { DocumentParser } from '../parse/service.js';
import type { Scraper } from '../scrape/pipeline.js';
import type { SearchService } from '../search/service.js';
import type { BlobStore } from '../store/blobs.js';
import type { DocumentRepository } from '../store/documents.js';
import type { KeyRepository } from '../store/keys.js';
import { VERSION } from '../version.js';
import type { AuditLog } from '../billing/audit.js';
import { installAudit } from './audit.js';
import type { CreditLedger } from '../billing/ledger.js';
import type { QueueStatusReader } from './routes/team.js';
import { installAuth } from './auth.js';
import { installTeamPolicies } from './team-policies.js';
import type { ThreatProtection } from '../security/threat/service.js';
import { refuseWhileClosing } from './draining.js';
import { frameworkError, installErrorHandling } from './errors.js';
import { installJsonBodyParser } from './json-depth.js';
import { installOpenApi } from './openapi.js';
import { endQuietConnectionsOnClose } from './quiet-connections.js';
import { closeRefusedUpgrades } from './refused-upgrades.js';
import { browserRoutes } from './routes/browser.js';
import { fileRoutes } from './routes/files.js';
import { healthRoutes } from './routes/health.js';
import { crawlBatchRoutes } from './routes/crawl-batch.js';
import { mapRoutes } from './routes/map.js';
import { parseRoutes } from './routes/parse.js';
import { monitorRoutes } from './routes/monitors.js';
import { scrapeRoutes } from './routes/scrape.js';
import type { RateLimits } from './rate-limit.js';
import { searchRoutes } from './routes/search.js';
import { teamRoutes } from './routes/team.js';
import { zodValidatorCompiler } from './validation.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the API serves; the runtime (runtime.ts) provides it. */
export interface AppServices {
  config: Pick<Config, 'bodyLimitBytes' | 'publicUrl' | 'browserCdp' | 'rateLimitPerMinute'>;
  log: Logger;
  keys: KeyRepository;
  limits: RateLimits;
  storeReady(): Promise<void>;
  blobs: BlobStore;
  scraper: Scraper;
  documents: DocumentRepository<Document>;
  parser: DocumentParser;
  mapper: MapService;
  /** The language model, when one is configured. */
  model: ModelProvider | undefined;
  ledger: CreditLedger;
  audit: AuditLog;
  queueStatus: QueueStatusReader;
  searchService: SearchService;
  crawls: CrawlService;
  monitorService: MonitorService;
  browserSessions: BrowserSessions;
  /** Per-team threat protection and zero data retention. */
  threat: ThreatProtection;
}

export async function buildApp(rt: AppServices): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: rt.log as FastifyBaseLogger,
    bodyLimit: rt.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Answered by refuseWhileClosing instead, with the error envelope and Retry-After.
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    routerOptions: { ignoreTrailingSlash: true },
  });
  endQuietConnectionsOnClose(app);
  closeRefusedUpgrades(app);
  installJsonBodyParser(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are plain objects we build ourselves; skip schema-driven serialisation.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onSend', async (req, reply, payload) => {
    void reply.header('x-request-id', req.id);
    return payload;
  });

  installErrorHandling(app);
  refuseWhileClosing(app);
  installAuth(app, rt.keys, rt.limits, rt.ledger);
  installAudit(app, rt.audit);
  installTeamPolicies(app, rt.threat);
  await installOpenApi(app, VERSION);
  const { publicUrl } = rt.config;
  await app.register(healthRoutes, { storeReady: () => rt.storeReady() });
  await app.register(fileRoutes, { blobs: rt.blobs });
  await app.register(scrapeRoutes, { scraper: rt.scraper, documents: rt.documents, browserSessions: rt.browserSessions, ledger: rt.ledger, publicUrl });
  await app.register(mapRoutes, { mapper: rt.mapper, ledger: rt.ledger, threat: rt.threat, publicUrl });
  await app.register(searchRoutes, { search: rt.searchService, ledger: rt.ledger, threat: rt.threat, rateLimitPerMinute: rt.config.rateLimitPerMinute, publicUrl });
  await app.register(parseRoutes, { parser: rt.parser, documents: rt.documents, ledger: rt.ledger, zdr: (teamId) => rt.threat.zdr(teamId) });
  await app.register(monitorRoutes, { monitors: rt.monitorService, publicUrl });
  await app.register(browserRoutes, { browserSessions: rt.browserSessions, documents: rt.documents, keys: rt.keys, model: rt.model, browserCdp: rt.config.browserCdp, publicUrl });
  await app.register(teamRoutes, { ledger: rt.ledger, queueStatus: rt.queueStatus });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(crawlBatchRoutes, { crawls: rt.crawls, model: rt.model, log: rt.log, publicUrl });
  return app;
}
