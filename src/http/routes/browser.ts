/**
 * Interactive browser routes: sessions (`/v2/browser`), code run against a session's page
 * (`execute`), and `interact`, which continues in the page a `keepAlive` scrape left open, or
 * else opens a session on the scrape's final URL.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { Document } from '../../core/document.js';
import type { DocumentRepository } from '../../store/documents.js';
import { needsModelMessage, type ModelAccess } from '../../llm/types.js';
import type { SandboxResult } from '../../browser/execute/sandbox.js';
import { CdpRelay } from '../../browser/cdp-relay.js';
import { parseCommands, type BrowserCommand } from '../../browser/execute/commands.js';
import { pagePrompt } from '../../browser/page-prompt.js';
import type { BrowserSessions, CdpCredentials, ExecuteRequest, SessionEnd } from '../../browser/sessions.js';
import { hasScope, type KeyRepository } from '../../store/keys.js';
import { principalOf } from '../auth.js';
import { baseUrlOf } from '../base-url.js';

const AVAILABLE_LANGUAGES = ['node', 'bash'] as const;

const idParams = z.object({ id: z.string().min(1).max(128) });

const profileSchema = z.object({ name: z.string().min(1).max(128), saveChanges: z.boolean().default(true) });

const createSchema = z.looseObject({
  /** Seconds the session may live in all. */
  ttl: z.number().int().min(30).max(3600).default(600),
  /** Seconds without an execute after which the session ends. */
  activityTtl: z.number().int().min(10).max(3600).default(300),
  streamWebView: z.boolean().optional(),
  profile: profileSchema.optional(),
  integration: z.string().max(256).optional(),
  origin: z.string().max(256).optional(),
});

const language = z.enum(['node', 'python', 'bash']);
const timeoutSeconds = z.number().int().min(1).max(300).default(30);

const executeSchema = z.looseObject({
  code: z.string().max(1_000_000).optional(),
  prompt: z.string().max(10_000).optional(),
  language: language.default('node'),
  timeout: timeoutSeconds,
  origin: z.string().max(256).optional(),
});

const interactSchema = z.looseObject({
  code: z.string().max(1_000_000).optional(),
  prompt: z.string().max(10_000).optional(),
  language: language.default('node'),
  timeout: timeoutSeconds,
  origin: z.string().max(256).optional(),
});

const listQuery = z.looseObject({ status: z.enum(['active', 'destroyed']).optional() });

const cdpQuery = z.looseObject({ token: z.string().max(256).optional() });

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** The websocket URL a CDP client attaches to; the secret rides in the query, as CDP clients take a bare URL. */
const cdpUrlOf = (deps: BrowserRouteDeps, req: FastifyRequest, id: string, token: string) =>
  `${baseUrlOf(deps.publicUrl, req).replace(/^http/, 'ws')}/v2/browser/${encodeURIComponent(id)}/cdp?token=${token}`;

/** The session's own secret, or else an API key of a team with the browser scope. */
async function cdpCredentials(deps: BrowserRouteDeps, req: FastifyRequest, token: string | undefined): Promise<CdpCredentials> {
  if (token) return { token };
  const key = bearer.exec(req.headers.authorization ?? '')?.[1];
  const principal = key ? await deps.keys.authenticate(key) : undefined;
  if (!principal) throw new ApiError('UNAUTHORIZED');
  if (!hasScope(principal, 'browser')) throw new ApiError('FORBIDDEN', { message: "Forbidden: this API key lacks the 'browser' scope" });
  return { teamId: principal.teamId };
}

function checkLanguage(lang: string): void {
  if ((AVAILABLE_LANGUAGES as readonly string[]).includes(lang)) return;
  throw new ApiError('UNSUPPORTED_OPTION', {
    message: `Language '${lang}' is not available on this server; available: node (JavaScript with a Playwright-style \`page\`), bash (agent-browser commands)`,
    details: [{ code: 'unsupported', path: ['language'], message: `Available: ${AVAILABLE_LANGUAGES.join(', ')}` }],
  });
}

/**
 * What to run: the code (bash parsed into commands), or else the model's plan for the prompt.
 * A prompt without a model is refused before anything else is looked up.
 */
function work(deps: BrowserRouteDeps, req: FastifyRequest, b: z.output<typeof interactSchema>, requestId: string): Omit<ExecuteRequest, 'timeoutMs' | 'absoluteUrl'> {
  if (b.code?.trim()) return program(b.language, b.code);
  if (!b.prompt?.trim()) {
    throw new ApiError('BAD_REQUEST', { message: "Either 'code' or 'prompt' must be provided", details: [{ code: 'custom', path: ['code'], message: "Either 'code' or 'prompt' must be provided" }] });
  }
  if (!deps.model) throw new ApiError('MODEL_NOT_CONFIGURED', { message: needsModelMessage('A prompt'), details: [{ path: ['prompt'], message: needsModelMessage('A prompt') }] });
  const { teamId, keyId } = principalOf(req);
  return { code: '', agent: pagePrompt(deps.model, { teamId, keyId, requestId }, b.prompt, b.timeout * 1000) };
}

/** The code to run: JavaScript as it is, or bash parsed into browser commands (a 400 when it is not). */
function program(language: 'node' | 'python' | 'bash', code: string): { code: string; commands?: BrowserCommand[] } {
  checkLanguage(language);
  return language === 'bash' ? { code, commands: parseCommands(code) } : { code };
}

function executeBody(r: SandboxResult) {
  return {
    success: true,
    stdout: r.stdout,
    stderr: r.stderr,
    output: r.output ?? r.stdout,
    ...(r.result !== undefined ? { result: r.result } : {}),
    exitCode: r.exitCode,
    killed: r.killed,
    truncated: r.truncated,
  };
}

/** The answer to ending a session: `creditsBilled` is the SDK's name for what it was charged. */
function ended(req: FastifyRequest, e: SessionEnd) {
  req.creditsCharged = e.creditsUsed;
  return { success: true, status: 'destroyed', sessionDurationMs: e.durationMs, creditsBilled: e.creditsUsed, creditsUsed: e.creditsUsed };
}

const absoluteUrl = (deps: BrowserRouteDeps, req: FastifyRequest) => {
  const base = baseUrlOf(deps.publicUrl, req);
  return (p: string) => base + p;
};

export interface BrowserRouteDeps {
  browserSessions: BrowserSessions;
  documents: DocumentRepository<Document>;
  keys: KeyRepository;
  /** The language model, when one is configured (prompts need it). */
  model: ModelAccess | undefined;
  /** Whether sessions hand out a CDP URL (BROWSER_CDP). */
  browserCdp: boolean;
  publicUrl: string | undefined;
}

export async function browserRoutes(app: FastifyInstance, deps: BrowserRouteDeps): Promise<void> {
  const config = { scope: 'browser', bucket: 'browser' } as const;

  app.post('/v2/browser', { schema: { body: createSchema, tags: ['browser'] }, config }, async (req) => {
    const b = req.body as z.output<typeof createSchema>;
    const s = await deps.browserSessions.create(principalOf(req).teamId, {
      ttlMs: b.ttl * 1000,
      activityTtlMs: b.activityTtl * 1000,
      profile: b.profile,
      cdp: deps.browserCdp,
    });
    return { success: true, id: s.id, ...(s.cdpToken ? { cdpUrl: cdpUrlOf(deps, req, s.id, s.cdpToken) } : {}), expiresAt: s.expiresAt, creditsUsed: s.creditsUsed };
  });

  app.get('/v2/browser', { schema: { querystring: listQuery, tags: ['browser'] }, config }, async (req) => {
    const { status } = req.query as z.output<typeof listQuery>;
    const sessions = await deps.browserSessions.list(principalOf(req).teamId, status);
    return {
      success: true,
      sessions: sessions.map(({ cdpToken, ...s }) => ({ ...s, ...(cdpToken ? { cdpUrl: cdpUrlOf(deps, req, s.id, cdpToken) } : {}), streamWebView: false })),
    };
  });

  // Raw CDP to the session's own Chromium. Public to the key check, which cannot read a secret
  // in the query: the handler authenticates by the session's secret or a Bearer key itself.
  const relay = new CdpRelay();
  app.addHook('onClose', async () => relay.close());
  app.get('/v2/browser/:id/cdp', { schema: { params: idParams, querystring: cdpQuery, tags: ['browser'] }, config: { public: true } }, async (req, reply) => {
    if (!deps.browserCdp) {
      throw new ApiError('FORBIDDEN', { message: 'CDP access is turned off on this server; the operator can turn it on with BROWSER_CDP=true' });
    }
    const { id } = req.params as z.output<typeof idParams>;
    const { token } = req.query as z.output<typeof cdpQuery>;
    const target = deps.browserSessions.cdpTarget(id, await cdpCredentials(deps, req, token));
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') {
      throw new ApiError('BAD_REQUEST', { message: 'This endpoint speaks the Chrome DevTools Protocol over a WebSocket; connect with connectOverCDP' });
    }
    const browser = await relay.dial(target.endpoint);
    reply.hijack();
    try {
      target.track(await relay.attach(req.raw, req.raw.socket, browser, target.guard));
    } catch {
      // The client left mid-upgrade; there is nobody to answer.
    }
  });

  app.post('/v2/browser/:id/execute', { schema: { params: idParams, body: executeSchema, tags: ['browser'] }, config }, async (req) => {
    const { id } = req.params as z.output<typeof idParams>;
    const b = req.body as z.output<typeof executeSchema>;
    const r = await deps.browserSessions.execute(principalOf(req).teamId, id, { ...work(deps, req, b, `browser:${id}`), timeoutMs: b.timeout * 1000, absoluteUrl: absoluteUrl(deps, req) });
    return executeBody(r);
  });

  app.delete('/v2/browser/:id', { schema: { params: idParams, tags: ['browser'] }, config }, async (req) => {
    const { id } = req.params as z.output<typeof idParams>;
    return ended(req, await deps.browserSessions.destroy(principalOf(req).teamId, id));
  });

  app.post('/v2/scrape/:id/interact', { schema: { params: idParams, body: interactSchema, tags: ['browser'] }, config }, async (req) => {
    const { id } = req.params as z.output<typeof idParams>;
    const b = req.body as z.output<typeof interactSchema>;
    const teamId = principalOf(req).teamId;
    const code = work(deps, req, b, `interact:${id}`);
    let sessionId = deps.browserSessions.forScrape(teamId, id);
    if (!sessionId) {
      const doc = await deps.documents.getScrape(id, teamId);
      if (!doc) throw new ApiError('BROWSER_SESSION_NOT_FOUND', { message: 'Browser session not found: no scrape with this id' });
      const s = await deps.browserSessions.create(teamId, {
        ...deps.browserSessions.interactTtl,
        scrapeId: id,
        startUrl: doc.metadata.url || doc.metadata.sourceURL,
      });
      sessionId = s.id;
    }
    const r = await deps.browserSessions.execute(teamId, sessionId, { ...code, timeoutMs: b.timeout * 1000, absoluteUrl: absoluteUrl(deps, req) });
    return executeBody(r);
  });

  app.delete('/v2/scrape/:id/interact', { schema: { params: idParams, tags: ['browser'] }, config }, async (req) => {
    const { id } = req.params as z.output<typeof idParams>;
    const teamId = principalOf(req).teamId;
    const sessionId = deps.browserSessions.forScrape(teamId, id);
    if (!sessionId) throw new ApiError('BROWSER_SESSION_NOT_FOUND');
    return ended(req, await deps.browserSessions.destroy(teamId, sessionId));
  });
}
