/**
 * `tbs`, the time filter search engines take: `qdr:h|d|w|m|y` (past hour, day, week, month,
 * year; a count may follow, `qdr:h6`), `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY` (a custom range,
 * either end optional) and `sbd:1` (newest first). Parsed once at the edge; the range is made
 * concrete against a clock when a search runs.
 */

export type RelativeUnit = 'h' | 'd' | 'w' | 'm' | 'y';

export interface TimeFilter {
  relative?: { unit: RelativeUnit; count: number };
  /** Custom range bounds, epoch ms (the `to` bound covers its whole day). */
  from?: number;
  to?: number;
  sortByDate: boolean;
}

const UNIT_MS: Record<RelativeUnit, number> = {
  h: 3600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 31 * 86_400_000,
  y: 366 * 86_400_000,
};

/** M/D/YYYY (Google's form) or YYYY-MM-DD, as a UTC day. */
function parseDay(s: string): number | undefined {
  let y: number, m: number, d: number;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (us) [m, d, y] = [Number(us[1]), Number(us[2]), Number(us[3])];
  else if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else return undefined;
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? t : undefined;
}

/** The filter, or a message saying what is wrong with the text. */
export function parseTbs(text: string): TimeFilter | string {
  const out: TimeFilter = { sortByDate: false };
  let custom = false;
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, ...rest] = part.split(':');
    const value = rest.join(':').trim();
    switch (key) {
      case 'qdr': {
        const m = /^([hdwmy])(\d{0,4})$/.exec(value);
        if (!m) return `Unknown time range "qdr:${value}"; expected qdr:h, qdr:d, qdr:w, qdr:m or qdr:y`;
        const count = m[2] ? Number(m[2]) : 1;
        if (count < 1) return 'A qdr count must be at least 1';
        out.relative = { unit: m[1] as RelativeUnit, count };
        break;
      }
      case 'cdr':
        if (value !== '1') return 'cdr must be cdr:1';
        custom = true;
        break;
      case 'cd_min':
      case 'cd_max': {
        const day = parseDay(value);
        if (day === undefined) return `${key} must be a date written M/D/YYYY (or YYYY-MM-DD), got "${value}"`;
        if (key === 'cd_min') out.from = day;
        else out.to = day + 86_400_000 - 1;
        break;
      }
      case 'sbd':
        out.sortByDate = value === '1';
        break;
      case 'li':
      case 'lr':
        // Verbatim / language hints: nothing to filter on.
        break;
      default:
        return `Unknown tbs part "${part}"`;
    }
  }
  if ((out.from !== undefined || out.to !== undefined) && !custom) return 'cd_min and cd_max need cdr:1';
  if (custom && out.from === undefined && out.to === undefined) return 'cdr:1 needs cd_min or cd_max';
  if (custom && out.relative) return 'Use either qdr or a custom range (cdr), not both';
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) return 'cd_min is after cd_max';
  return out;
}

/** The window [from, to] in epoch ms a filter means at `now`. */
export function windowOf(f: TimeFilter, now: number): { from?: number; to?: number } {
  if (f.relative) return { from: now - UNIT_MS[f.relative.unit] * f.relative.count };
  const w: { from?: number; to?: number } = {};
  if (f.from !== undefined) w.from = f.from;
  if (f.to !== undefined) w.to = f.to;
  return w;
}

/** SearXNG's coarser `time_range` (day, week, month, year) that still covers the window. */
export function searxTimeRange(f: TimeFilter, now: number): 'day' | 'week' | 'month' | 'year' | undefined {
  const { from } = windowOf(f, now);
  if (from === undefined) return undefined;
  const span = now - from;
  if (span <= UNIT_MS.d) return 'day';
  if (span <= UNIT_MS.w) return 'week';
  if (span <= UNIT_MS.m) return 'month';
  if (span <= UNIT_MS.y) return 'year';
  return undefined;
}
