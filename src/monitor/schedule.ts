/**
 * Monitor schedules: a 5-field cron expression read in an IANA time zone (croner does the
 * calendar arithmetic, DST included), or a short English phrase turned into one.
 */
import { Cron } from 'croner';

export const DEFAULT_TIMEZONE = 'UTC';

/** True when the runtime knows the zone (`Europe/Berlin`, `UTC`, `Etc/GMT+2`...). */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Why a cron expression is refused, or undefined when it is a valid 5-field expression. */
export function cronError(expr: string): string | undefined {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return 'Expected a 5-field cron expression (minute hour day-of-month month day-of-week)';
  try {
    const c = new Cron(expr, { paused: true });
    if (c.nextRun(new Date()) === null) return 'The cron expression never fires';
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^CronPattern:\s*/, '');
  }
}

function cronOf(expr: string, timezone: string): Cron {
  // Standard cron semantics: when both day fields are restricted, either may match.
  return new Cron(expr, { paused: true, timezone, domAndDow: false });
}

/** The first run strictly after `from` (epoch ms), or null when there is none. */
export function nextRunAfter(expr: string, timezone: string, from: number): number | null {
  const next = cronOf(expr, timezone).nextRun(new Date(from));
  return next ? next.getTime() : null;
}

const NAMES: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6,
};

/**
 * How many values a cron field can take, or undefined when it is unrestricted (`*`, `?`) or
 * uses a form (L, W, #) counted as unrestricted. Only used for an upper bound.
 */
function fieldSize(field: string, min: number, max: number): number | undefined {
  if (field === '*' || field === '?' || /[LW#]/i.test(field)) return undefined;
  const values = new Set<number>();
  const num = (v: string) => NAMES[v.toLowerCase()] ?? Number(v);
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    let lo = min;
    let hi = max;
    if (range !== '*' && range !== undefined) {
      const [a, b] = range.split('-');
      lo = num(a!);
      hi = b !== undefined ? num(b) : stepText ? max : lo;
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(step >= 1)) return undefined;
    for (let v = lo; v <= hi; v += step) values.add(v === 7 && max === 7 ? 0 : v);
  }
  return values.size;
}

/**
 * An upper bound on the runs of a 5-field expression in any 31 days, from its fields alone
 * (walking a minutely schedule run by run would cost seconds): runs per day times the days that
 * can match, plus one repeated hour for a daylight-saving fall-back.
 */
export function maxRunsPerMonth(expr: string): number {
  const [min, hour, dom, , dow] = expr.trim().split(/\s+/);
  const minutes = fieldSize(min!, 0, 59) ?? 60;
  const hours = fieldSize(hour!, 0, 23) ?? 24;
  const domN = fieldSize(dom!, 1, 31);
  const dowN = fieldSize(dow!, 0, 7);
  let days = 31;
  if (domN !== undefined && dowN !== undefined) days = Math.min(31, domN + 5 * dowN);
  else if (domN !== undefined) days = Math.min(31, domN);
  else if (dowN !== undefined) days = Math.min(31, 5 * dowN);
  return minutes * hours * days + (hours < 24 ? minutes : 0);
}

const UNITS: Record<string, 'minute' | 'hour' | 'day'> = {
  m: 'minute', min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute',
  h: 'hour', hr: 'hour', hrs: 'hour', hour: 'hour', hours: 'hour',
  d: 'day', day: 'day', days: 'day',
};
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `9`, `9:30`, `9am`, `9:30 pm`, `21:00` -> [hour, minute], or undefined. */
function timeOfDay(s: string | undefined): [number, number] | undefined {
  if (s === undefined) return [0, 0];
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(s.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  if (m[3]) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  return h <= 23 && min <= 59 ? [h, min] : undefined;
}

/**
 * Turns a plain-English schedule into cron. Understood: `every N minutes|hours|days`,
 * `every minute|hour|day`, `hourly`, `daily|weekly|monthly [at TIME]`, `every day at TIME`,
 * `every <weekday> [at TIME]`, `weekdays at TIME`. Anything else is undefined (a 400 upstream).
 */
export function textToCron(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  let m = /^every (\d+) ?([a-z]+)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    const unit = UNITS[m[2]!];
    if (!unit || n < 1) return undefined;
    if (unit === 'minute') return n === 1 ? '* * * * *' : n < 60 && 60 % n === 0 ? `*/${n} * * * *` : n % 60 === 0 && 24 % (n / 60) === 0 ? `0 */${n / 60} * * *` : undefined;
    if (unit === 'hour') return n === 1 ? '0 * * * *' : n < 24 && 24 % n === 0 ? `0 */${n} * * *` : n === 24 ? '0 0 * * *' : undefined;
    return n === 1 ? '0 0 * * *' : n <= 31 ? `0 0 */${n} * *` : undefined;
  }
  if (t === 'every minute') return '* * * * *';
  if (t === 'hourly' || t === 'every hour') return '0 * * * *';
  m = /^(?:daily|every day)(?: at (.+))?$/.exec(t);
  if (m) {
    const hm = timeOfDay(m[1]);
    return hm ? `${hm[1]} ${hm[0]} * * *` : undefined;
  }
  m = /^(?:weekdays|every weekday)(?: at (.+))?$/.exec(t);
  if (m) {
    const hm = timeOfDay(m[1]);
    return hm ? `${hm[1]} ${hm[0]} * * 1-5` : undefined;
  }
  m = /^weekly(?: at (.+))?$/.exec(t);
  if (m) {
    const hm = timeOfDay(m[1]);
    return hm ? `${hm[1]} ${hm[0]} * * 1` : undefined;
  }
  m = /^monthly(?: at (.+))?$/.exec(t);
  if (m) {
    const hm = timeOfDay(m[1]);
    return hm ? `${hm[1]} ${hm[0]} 1 * *` : undefined;
  }
  m = /^every ([a-z]+?)s?(?: at (.+))?$/.exec(t);
  if (m) {
    const day = WEEKDAYS.indexOf(m[1]!);
    const hm = timeOfDay(m[2]);
    return day >= 0 && hm ? `${hm[1]} ${hm[0]} * * ${day}` : undefined;
  }
  return undefined;
}
