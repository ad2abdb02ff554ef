/**
 * PII detection and redaction. `fast` is pattern work only: e-mail addresses, phone numbers
 * (through libphonenumber-js), Luhn-checked card numbers, checksummed IBANs and secrets (API
 * keys, tokens, private keys). `accurate`/`aggressive` add what a model found in the page
 * (`known`), or without one, people and places found by an NLP library (compromise).
 */
import { findNumbers, type CountryCode } from 'libphonenumber-js';
import { createRequire } from 'node:module';
import type compromise from 'compromise';

export type PiiEntity = 'PERSON' | 'EMAIL' | 'PHONE' | 'LOCATION' | 'FINANCIAL' | 'SECRET';
export const PII_ENTITIES: readonly PiiEntity[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];
export type ReplaceStyle = 'tag' | 'mask' | 'remove';

export interface Span {
  start: number;
  end: number;
  entity: PiiEntity;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const CARD = /\b(?:\d[ -]?){12,18}\d\b/g;
const IBAN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g;
const SECRETS: RegExp[] = [
  /-----BEGIN (?:[A-Z ]+ )?PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z ]+ )?PRIVATE KEY-----/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\b(?:sk|pk|rk)[-_](?:live|test|proj)?[-_]?[A-Za-z0-9_-]{16,}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{40,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
  /\b(?:fc|glpat|npm|hf)[-_][A-Za-z0-9_-]{20,}\b/g,
  // Not ending on a full stop: that ends the sentence the value stands in.
  /(?<=\b(?:api[_-]?key|secret|token|password|passwd|access[_-]?key)["']?\s*[:=]\s*["']?)[A-Za-z0-9/+_.=-]{11,}[A-Za-z0-9/+_=-]/gi,
];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function ibanValid(raw: string): boolean {
  const s = raw.replace(/ /g, '');
  if (s.length < 15 || s.length > 34) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

function patternSpans(text: string, wanted: Set<PiiEntity>, region: CountryCode): Span[] {
  const out: Span[] = [];
  const all = (re: RegExp, entity: PiiEntity, ok: (m: string) => boolean = () => true) => {
    for (const m of text.matchAll(re)) if (ok(m[0])) out.push({ start: m.index, end: m.index + m[0].length, entity });
  };
  if (wanted.has('SECRET')) for (const re of SECRETS) all(re, 'SECRET');
  if (wanted.has('EMAIL')) all(EMAIL, 'EMAIL');
  if (wanted.has('FINANCIAL')) {
    all(CARD, 'FINANCIAL', (m) => {
      const d = m.replace(/\D/g, '');
      return d.length >= 13 && d.length <= 19 && luhn(d);
    });
    all(IBAN, 'FINANCIAL', ibanValid);
  }
  if (wanted.has('PHONE')) {
    for (const f of findNumbers(text, { defaultCountry: region, v2: true })) out.push({ start: f.startsAt, end: f.endsAt, entity: 'PHONE' });
  }
  return out;
}

let nlpLoaded: typeof compromise | undefined;

/** The NLP library takes a second or more to load its lexicon: only the first request that looks for names pays it, not every start. */
function nlp(): typeof compromise {
  return (nlpLoaded ??= createRequire(import.meta.url)('compromise') as typeof compromise);
}

function nlpSpans(text: string, wanted: Set<PiiEntity>): Span[] {
  if (!wanted.has('PERSON') && !wanted.has('LOCATION')) return [];
  const doc = nlp()(text);
  const out: Span[] = [];
  const take = (view: { out(f: 'offset'): { text: string; offset: { start: number; length: number } }[] }, entity: PiiEntity) => {
    for (const m of view.out('offset')) {
      // compromise keeps trailing punctuation on a match.
      const trimmed = m.text.replace(/[\s.,;:!?)"']+$/, '');
      if (trimmed.length > 1) out.push({ start: m.offset.start, end: m.offset.start + trimmed.length, entity });
    }
  };
  if (wanted.has('PERSON')) take(doc.people(), 'PERSON');
  if (wanted.has('LOCATION')) take(doc.places(), 'LOCATION');
  return out;
}

/** A piece of PII found elsewhere (by a model), to redact wherever it appears verbatim. */
export interface KnownPii {
  text: string;
  entity: PiiEntity;
}

export interface DetectOptions {
  entities: readonly PiiEntity[];
  /** Also people and places (the NLP pass). */
  names: boolean;
  /** Pieces found by a model in the page: every verbatim occurrence is a span. */
  known?: readonly KnownPii[];
  region?: CountryCode;
}

/** Shorter pieces would match inside ordinary words. */
const MIN_KNOWN = 3;

function knownSpans(text: string, known: readonly KnownPii[], wanted: Set<PiiEntity>): Span[] {
  const out: Span[] = [];
  for (const k of known) {
    if (!wanted.has(k.entity) || k.text.length < MIN_KNOWN) continue;
    for (let at = text.indexOf(k.text); at >= 0; at = text.indexOf(k.text, at + k.text.length)) out.push({ start: at, end: at + k.text.length, entity: k.entity });
  }
  return out;
}

/** Spans to redact, earlier and longer ones winning where they overlap. */
export function detectPii(text: string, opts: DetectOptions): Span[] {
  const wanted = new Set(opts.entities);
  const spans = [
    ...patternSpans(text, wanted, opts.region ?? 'US'),
    ...(opts.names ? nlpSpans(text, wanted) : []),
    ...(opts.known ? knownSpans(text, opts.known, wanted) : []),
  ];
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Span[] = [];
  for (const s of spans) {
    const last = kept.at(-1);
    if (last && s.start < last.end) {
      if (s.end > last.end && s.entity === last.entity) last.end = s.end;
      continue;
    }
    kept.push({ ...s });
  }
  return kept;
}

export function redactText(text: string, spans: Span[], style: ReplaceStyle, escapeTags = false): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start);
    if (style === 'tag') out += escapeTags ? `&lt;${s.entity}&gt;` : `<${s.entity}>`;
    else if (style === 'mask') out += '*'.repeat(s.end - s.start);
    at = s.end;
  }
  return out + text.slice(at);
}
