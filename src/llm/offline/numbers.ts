/** Numbers as pages write them, for the offline json, product and menu formats. */

/** A number out of "$1,299.00", "4.5 out of 5", "1.299,00 €", "1.299.000 €", "−3". */
export function readNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const m = v.replace(/\s/g, '').replace(/\u2212/g, '-').match(/-?\d[\d.,]*\d|-?\d/);
  if (!m) return undefined;
  let s = m[0];
  if (/,\d{1,2}$/.test(s) && s.includes('.')) s = s.replace(/\./g, '').replace(',', '.');
  else if (/,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  // Two dots or more: they group thousands, as in "1.299.000".
  else if (/\..*\./.test(s) && !s.includes(',')) s = s.replace(/\./g, '');
  else s = s.replace(/,/g, '');
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}
