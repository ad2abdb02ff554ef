/**
 * Turns response bytes into text with the right character set: the Content-Type charset, then a
 * byte-order mark, then a `<meta charset>` in the first bytes, then UTF-8 if the bytes are valid
 * UTF-8, else windows-1252 (what browsers assume for unlabelled legacy pages).
 */
import iconv from 'iconv-lite';

const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|json|ld\+json|rss\+xml|atom\+xml|javascript)|image\/svg\+xml)/i;

/** Whether a response should be decoded as text (HTML, XML, JSON, plain text). */
export function isTextual(contentType: string, body: Buffer): boolean {
  if (contentType) return TEXT_TYPES.test(contentType.trim());
  // No type given: sniff for markup and for binary control bytes.
  const head = body.subarray(0, 512);
  if (head.includes(0)) return false;
  return /^\s*</.test(head.toString('latin1'));
}

const charsetFromType = (contentType: string): string | undefined => /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];

function charsetFromBom(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

function charsetFromMeta(body: Buffer): string | undefined {
  const head = body.subarray(0, 4096).toString('latin1');
  return (
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1]
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(body: Buffer): boolean {
  try {
    utf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

export function detectCharset(body: Buffer, contentType: string): string {
  const declared = charsetFromBom(body) ?? charsetFromType(contentType) ?? charsetFromMeta(body);
  if (declared) {
    const label = declared.toLowerCase();
    // Pages labelled latin-1 are almost always windows-1252 (browsers decode them so).
    const normalised = label === 'iso-8859-1' || label === 'latin1' || label === 'us-ascii' ? 'windows-1252' : label;
    if (iconv.encodingExists(normalised)) return normalised;
  }
  return isValidUtf8(body) ? 'utf-8' : 'windows-1252';
}

export function decodeBody(body: Buffer, contentType: string): string {
  const charset = detectCharset(body, contentType);
  const text = charset === 'utf-8' ? body.toString('utf8') : iconv.decode(body, charset);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
