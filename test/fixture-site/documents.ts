/**
 * Documents the fixture site serves under /docs/. They are generated (see
 * test/helpers/documents.ts), so a test registers the bytes it made before scraping them.
 */
import type http from 'node:http';

const served = new Map<string, { body: Buffer; contentType: string }>();

export function serveDocumentAt(path: string, body: Buffer, contentType: string): void {
  served.set(path, { body, contentType });
}

/** Answers a /docs/ request from the registry; false when the path is not one. */
export function serveDocument(path: string, res: http.ServerResponse): boolean {
  const doc = served.get(path);
  if (!doc) return false;
  res.writeHead(200, { 'content-type': doc.contentType, 'content-length': String(doc.body.length) });
  res.end(doc.body);
  return true;
}
