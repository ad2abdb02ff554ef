/**
 * `POST /v2/parse`: a multipart upload (`options` as JSON text, `file` as the bytes) parsed into a
 * Document. Multipart handling is registered in this route's own scope so other routes keep
 * answering 415 to form uploads.
 */
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scrapeCost } from '../../billing/costs.js';
import type { CreditLedger } from '../../billing/ledger.js';
import { ApiError, isApiError } from '../../errors.js';
import { parseOptionsSchema, type ParseOptions } from '../../scrape/parse-options.js';
import { parserSettings } from '../../parse/parsers.js';
import { applyParsed } from '../../scrape/parsed.js';
import type { DocumentParser, ParsedFile } from '../../parse/service.js';
import type { DocumentRepository } from '../../store/documents.js';
import type { Document, DocumentMetadata } from '../../core/document.js';
import { pendingFeatures, type ScrapeOptions } from '../../scrape/options.js';
import { formatOf } from '../../scrape/formats/registry.js';
import { principalOf } from '../auth.js';
import { assertShallow } from '../json-depth.js';
import { toFieldIssues } from '../validation.js';

/** Largest file accepted (larger: 413). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The parts are a stream read by the handler, so the OpenAPI document describes them in words. */
const UPLOAD_DESCRIPTION =
  'multipart/form-data with a `file` part (at most 50 MB; its kind is read from its bytes) and an optional `options` part: ParseOptions as JSON text (formats, parsers, timeout, onlyMainContent...).';

/** Formats that need a live page; the SDK refuses them for parse too. */
const PAGE_ONLY_FORMATS = new Set(['screenshot', 'changeTracking', 'branding', 'audio', 'video']);

interface Upload {
  options: ParseOptions;
  file: { body: Buffer; filename: string; mimetype: string };
}

function parseOptionsText(text: string | undefined): ParseOptions {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ApiError('BAD_REQUEST_INVALID_JSON', { message: 'Bad request, malformed JSON in the "options" part' });
    }
    assertShallow(raw, ['options']);
  }
  const result = parseOptionsSchema.safeParse(raw ?? {});
  if (!result.success) {
    throw new ApiError('BAD_REQUEST', { details: toFieldIssues(result.error.issues).map((i) => ({ ...i, path: ['options', ...i.path] })) });
  }
  const o = result.data;
  const refused = [
    ...pendingFeatures(o as unknown as ScrapeOptions),
    ...o.formats.flatMap((f, i) => (PAGE_ONLY_FORMATS.has(f.type) ? [{ path: `formats.${i}`, message: `The '${f.type}' format is not available for parse` }] : [])),
    // The model-layer formats run in the scrape pipeline; parse does not run them yet.
    ...o.formats.flatMap((f, i) =>
      !PAGE_ONLY_FORMATS.has(f.type) && formatOf(f.type).stage === 'page' ? [{ path: `formats.${i}`, message: `The '${f.type}' format is not supported yet for parse` }] : [],
    ),
  ];
  if (refused.length) throw new ApiError('UNSUPPORTED_OPTION', { message: refused.map((p) => p.message).join('; '), details: refused });
  return o;
}

async function readUpload(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported Media Type: send multipart/form-data with a "file" part and an optional "options" part' });
  }
  let optionsText: string | undefined;
  let file: Upload['file'] | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'options') optionsText = String(part.value);
      } else if (part.fieldname === 'file' && !file) {
        file = { body: await part.toBuffer(), filename: part.filename, mimetype: part.mimetype };
      } else {
        part.file.resume();
      }
    }
  } catch (e) {
    throw malformedUpload(e);
  }
  const options = parseOptionsText(optionsText);
  if (!file || file.body.length === 0) {
    throw new ApiError('BAD_REQUEST', { details: [{ code: 'custom', path: ['file'], message: 'A non-empty "file" part is required' }] });
  }
  return { options, file };
}

/**
 * What reading the parts threw, as the catalog sees it: size limits keep their 413; anything else
 * the multipart reader raises (no boundary, another boundary than the body's, a part cut short)
 * is the client's body, so a 400 saying what is wrong rather than a 500.
 */
function malformedUpload(e: unknown): unknown {
  if (isApiError(e) || (e as { statusCode?: number }).statusCode === 413) return e;
  const reason = (e as Error).message ?? String(e);
  const noBoundary = /boundary not found/i.test(reason);
  return new ApiError('BAD_REQUEST', {
    message: noBoundary ? 'Bad Request: the multipart Content-Type has no boundary' : 'Bad Request: the body is not well-formed multipart/form-data',
    details: [{ code: 'invalid_multipart', path: [], message: noBoundary ? 'Send Content-Type: multipart/form-data; boundary=...' : reason }],
  });
}

function toDocument(parsed: ParsedFile, o: ParseOptions, filename: string, scrapeId: string): Document {
  const metadata = { sourceURL: filename, statusCode: 200, contentType: parsed.mime, scrapeId } as DocumentMetadata;
  return applyParsed({ metadata }, parsed, o);
}

export interface ParseRouteDeps {
  parser: DocumentParser;
  documents: DocumentRepository<Document>;
  ledger: CreditLedger;
  /** Whether the team keeps nothing (zero data retention). */
  zdr: (teamId: string) => Promise<boolean>;
}

export async function parseRoutes(app: FastifyInstance, deps: ParseRouteDeps): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 8, fieldSize: 1024 * 1024, parts: 12 },
    });
    scope.post(
      '/v2/parse',
      { schema: { tags: ['parse'], consumes: ['multipart/form-data'], description: UPLOAD_DESCRIPTION }, config: { scope: 'parse', bucket: 'scrape' } },
      async (req) => {
        const { options: o, file } = await readUpload(req);
        const want = new Set(o.formats.map((f) => f.type));
        const parsed = await deps.parser.parse(
          { body: file.body, contentType: file.mimetype, filename: file.filename },
          {
            settings: parserSettings(o.parsers),
            wants: { markdown: want.has('markdown'), html: want.has('html'), links: want.has('links'), images: want.has('images') },
            transform: {
              baseUrl: 'file:///' + encodeURIComponent(file.filename),
              onlyMainContent: o.onlyMainContent,
              includeTags: o.includeTags ?? [],
              excludeTags: o.excludeTags ?? [],
              removeBase64Images: o.removeBase64Images,
            },
            deadline: Date.now() + o.timeout,
          },
        );
        const scrapeId = randomUUID();
        const doc = toDocument(parsed, o, file.filename, scrapeId);
        const { teamId, keyId } = principalOf(req);
        doc.metadata.creditsUsed = await deps.ledger.charge({ teamId, keyId, cause: `parse:${scrapeId}`, credits: scrapeCost(doc, {}) });
        req.creditsCharged = doc.metadata.creditsUsed;
        if (!o.zeroDataRetention && !(await deps.zdr(teamId))) await deps.documents.recordScrape(scrapeId, teamId, file.filename, doc);
        return { success: true, data: doc };
      },
    );
  });
}
