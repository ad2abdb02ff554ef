import { describe, expect, it } from 'vitest';
import { detectPii, redactText } from './pii.js';

const all = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
const found = (text: string, names = false) => detectPii(text, { entities: all, names }).map((s) => [s.entity, text.slice(s.start, s.end)]);

describe('PII detection', () => {
  it('takes card numbers only when the Luhn check passes, and IBANs only when their checksum does', () => {
    expect(found('card 4111 1111 1111 1111, order 4111 1111 1111 1112')).toEqual([['FINANCIAL', '4111 1111 1111 1111']]);
    expect(found('IBAN GB82 WEST 1234 5698 7654 32 or GB00 WEST 1234 5698 7654 32')).toEqual([['FINANCIAL', 'GB82 WEST 1234 5698 7654 32']]);
  });

  it('finds e-mail addresses, phone numbers and secrets', () => {
    expect(found('mail a.b@example.org now')).toEqual([['EMAIL', 'a.b@example.org']]);
    expect(found('call +44 20 7946 0958 today')).toEqual([['PHONE', '+44 20 7946 0958']]);
    expect(found('key sk-proj-abcdefghijklmnop1234 and AKIAIOSFODNN7EXAMPLE').map(([e]) => e)).toEqual(['SECRET', 'SECRET']);
    expect(found('password: hunter2hunter2xx')).toEqual([['SECRET', 'hunter2hunter2xx']]);
    expect(found('Set token=abc.def.ghi.jkl. Then go.')).toEqual([['SECRET', 'abc.def.ghi.jkl']]);
  });

  it('takes what a model found wherever it appears verbatim, of the kinds asked for', () => {
    const known = [
      { text: 'Ann Lee', entity: 'PERSON' as const },
      { text: 'Elm Street', entity: 'LOCATION' as const },
      { text: 'Al', entity: 'PERSON' as const },
    ];
    const spans = detectPii('Ann Lee lives on Elm Street. Ask Ann Lee. Also Alice.', { entities: ['PERSON'], names: false, known });
    expect(spans.map((s) => [s.entity, s.start])).toEqual([
      ['PERSON', 0],
      ['PERSON', 33],
    ]);
  });

  it('finds people and places only when names are asked for', () => {
    expect(found('Maria Gonzalez lives in Berlin.')).toEqual([]);
    expect(found('Maria Gonzalez lives in Berlin.', true)).toEqual([
      ['PERSON', 'Maria Gonzalez'],
      ['LOCATION', 'Berlin'],
    ]);
  });
});

describe('redaction styles', () => {
  const text = 'mail a@b.io now';
  const spans = detectPii(text, { entities: ['EMAIL'], names: false });
  it('tags, masks or removes', () => {
    expect(redactText(text, spans, 'tag')).toBe('mail <EMAIL> now');
    expect(redactText(text, spans, 'tag', true)).toBe('mail &lt;EMAIL&gt; now');
    expect(redactText(text, spans, 'mask')).toBe('mail ****** now');
    expect(redactText(text, spans, 'remove')).toBe('mail  now');
  });
});
