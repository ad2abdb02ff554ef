import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, detectCharset, isTextual } from './charset.js';

describe('charset detection', () => {
  const cafe = iconv.encode('<p>Café — 5 €</p>', 'windows-1252');

  it('trusts the Content-Type charset first', () => {
    expect(decodeBody(cafe, 'text/html; charset=windows-1252')).toBe('<p>Café — 5 €</p>');
  });

  it('reads a meta charset when the header has none', () => {
    const page = iconv.encode('<meta charset="iso-8859-1"><p>Müller</p>', 'windows-1252');
    expect(detectCharset(page, 'text/html')).toBe('windows-1252');
    expect(decodeBody(page, 'text/html')).toContain('Müller');
  });

  it('falls back to windows-1252 for unlabelled bytes that are not UTF-8', () => {
    expect(decodeBody(cafe, 'text/html')).toBe('<p>Café — 5 €</p>');
  });

  it('honours a UTF-8 byte-order mark and strips it', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>ü</p>')]);
    expect(decodeBody(bom, 'text/html; charset=windows-1252')).toBe('<p>ü</p>');
  });

  it('tells text from binary', () => {
    expect(isTextual('application/octet-stream', Buffer.from('x'))).toBe(false);
    expect(isTextual('application/json', Buffer.from('{}'))).toBe(true);
    expect(isTextual('', Buffer.from('<html></html>'))).toBe(true);
    expect(isTextual('', Buffer.from([0, 1, 2]))).toBe(false);
  });
});
