/**
 * The `branding` format without a model: colours, fonts, logo and icons read from the page's own
 * style sheets and markup. Tone and personality are judgements, so only a model gives them.
 */
import { load } from 'cheerio';

export interface BrandingProfile extends Record<string, unknown> {
  colorScheme?: 'light' | 'dark';
  brandName?: string;
  logo?: string;
  fonts?: { family: string; count: number }[];
  colors?: Partial<Record<'primary' | 'secondary' | 'accent' | 'background' | 'textPrimary' | 'textSecondary' | 'link', string>>;
  typography?: {
    fontFamilies?: { primary?: string; heading?: string; code?: string };
    fontStacks?: { primary?: string[]; heading?: string[] };
  };
  images?: { logo?: string; favicon?: string; ogImage?: string };
  components?: { buttonPrimary?: { background?: string; textColor?: string; borderColor?: string; borderRadius?: string } };
}

const COLOR = /#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})\b|rgba?\([^)]*\)|hsla?\([^)]*\)/gi;

export function normColor(c: string): string {
  const s = c.toLowerCase();
  if (/^#[0-9a-f]{3}$/.test(s)) return '#' + [...s.slice(1)].map((x) => x + x).join('');
  const m = s.match(/^rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)\s*(?:[,/]\s*([\d.]+%?))?\s*\)$/);
  if (m && (m[4] === undefined || Number(m[4].replace('%', '')) > 0.5)) return '#' + [m[1], m[2], m[3]].map((x) => Number(x).toString(16).padStart(2, '0')).join('');
  return s;
}

export const luminance = (hex: string): number | undefined => {
  const m = hex.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/);
  if (!m) return undefined;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x!, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

export const isGrey = (hex: string) => {
  const m = hex.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/);
  if (!m) return true;
  const v = [m[1], m[2], m[3]].map((x) => parseInt(x!, 16));
  return Math.max(...v) - Math.min(...v) < 24;
};

/** `selector { declarations }` pairs of a style sheet (nested at-rule blocks flattened). */
function rules(css: string): { selector: string; body: string }[] {
  const out: { selector: string; body: string }[] = [];
  for (const m of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}@;]+)\{([^{}]*)\}/g)) out.push({ selector: m[1]!.trim(), body: m[2]! });
  return out;
}

const decl = (body: string, prop: string): string | undefined => body.match(new RegExp(`(?:^|;)\\s*(?:${prop})\\s*:\\s*([^;]+)`, 'i'))?.at(-1)?.trim();
export const firstFamily = (v: string) => v.split(',')[0]!.replace(/["']/g, '').trim();

export function brandingProfile(html: string, pageUrl: string): BrandingProfile {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  const abs = (u: string | undefined) => {
    if (!u) return undefined;
    try {
      return new URL(u, pageUrl).href;
    } catch {
      return undefined;
    }
  };
  const css = $('style')
    .toArray()
    .map((el) => $(el).text())
    .join('\n');
  const sheet = rules(css);
  const inline = $('[style]')
    .toArray()
    .map((el) => $(el).attr('style') ?? '');
  const out: BrandingProfile = {};
  const colors: NonNullable<BrandingProfile['colors']> = {};
  const pick = (selectorTest: RegExp, prop: string) => {
    for (const r of sheet) if (selectorTest.test(r.selector)) {
      const v = decl(r.body, prop);
      if (v && COLOR.test(v)) {
        COLOR.lastIndex = 0;
        return normColor(v.match(COLOR)![0]);
      }
      COLOR.lastIndex = 0;
    }
    return undefined;
  };
  const vars = new Map<string, string>();
  for (const r of sheet) for (const m of r.body.matchAll(/--([\w-]+)\s*:\s*([^;]+)/g)) if (!vars.has(m[1]!.toLowerCase())) vars.set(m[1]!.toLowerCase(), m[2]!.trim());
  /** The colour a custom property comes to, through the properties it names (a palette's). */
  const colorOfVar = (value: string, depth = 0): string | undefined => {
    const own = value.match(COLOR)?.[0];
    if (own) return normColor(own);
    const named = value.match(/var\(\s*--([\w-]+)/)?.[1]?.toLowerCase();
    const next = named === undefined || depth >= 5 ? undefined : vars.get(named);
    return next === undefined ? undefined : colorOfVar(next, depth + 1);
  };
  /**
   * The colour of the custom property named for a role: one whose name ends with it
   * (--color-primary) before one that only mentions it (--color-primary-text).
   */
  const fromVar = (...names: string[]) => {
    for (const whole of [true, false]) {
      for (const [k, v] of vars) {
        if (!names.some((n) => (whole ? k === n || k.endsWith(`-${n}`) : k.includes(n)))) continue;
        const c = colorOfVar(v);
        if (c) return c;
      }
    }
    return undefined;
  };
  const background = pick(/(^|,)\s*(html|body|:root)\s*(,|$)/, 'background(-color)?') ?? fromVar('background', 'bg');
  const text = pick(/(^|,)\s*(html|body|:root)\s*(,|$)/, 'color') ?? fromVar('text', 'foreground', 'fg');
  const link = pick(/(^|,)\s*a(:link)?\s*(,|$)/, 'color') ?? fromVar('link');
  const theme = $('meta[name="theme-color"]').attr('content');
  const counts = new Map<string, number>();
  for (const m of (css + ' ' + inline.join(';')).matchAll(COLOR)) {
    const c = normColor(m[0]);
    if (!isGrey(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  const primary = fromVar('primary', 'brand') ?? (theme ? normColor(theme) : undefined) ?? pick(/button|\.btn|\.cta/i, 'background(-color)?') ?? ranked[0];
  if (primary) colors.primary = primary;
  const secondary = fromVar('secondary') ?? ranked.find((c) => c !== primary);
  if (secondary) colors.secondary = secondary;
  const accent = fromVar('accent') ?? ranked.find((c) => c !== primary && c !== secondary);
  if (accent) colors.accent = accent;
  if (background) colors.background = background;
  if (text) colors.textPrimary = text;
  if (link) colors.link = link;
  if (Object.keys(colors).length) out.colors = colors;

  const families = new Map<string, number>();
  for (const r of sheet) {
    const f = decl(r.body, 'font-family');
    if (f) families.set(firstFamily(f), (families.get(firstFamily(f)) ?? 0) + 1);
  }
  for (const s of inline) {
    const f = decl(s, 'font-family');
    if (f) families.set(firstFamily(f), (families.get(firstFamily(f)) ?? 0) + 1);
  }
  if (families.size) out.fonts = [...families.entries()].sort((a, b) => b[1] - a[1]).map(([family, count]) => ({ family, count }));
  const fontFor = (sel: RegExp) => {
    for (const r of sheet) if (sel.test(r.selector)) {
      const f = decl(r.body, 'font-family');
      if (f) return firstFamily(f);
    }
    return undefined;
  };
  const fontFamilies: NonNullable<NonNullable<BrandingProfile['typography']>['fontFamilies']> = {};
  const body = fontFor(/(^|,)\s*(html|body|:root)\s*(,|$)/);
  if (body) fontFamilies.primary = body;
  const heading = fontFor(/(^|,)\s*h[1-3]\b/);
  if (heading) fontFamilies.heading = heading;
  const code = fontFor(/(^|,)\s*(code|pre|kbd)\b/);
  if (code) fontFamilies.code = code;
  if (Object.keys(fontFamilies).length) out.typography = { fontFamilies };

  // The site's own logo sits in its header or links home; logos further in are clients' or partners'.
  const imgs = $('img').toArray();
  const inHeader = (el: (typeof imgs)[number]) => $(el).closest('header,nav,[role="banner"],a[href="/"]').length > 0;
  const saysLogo = (el: (typeof imgs)[number]) =>
    /logo/i.test([$(el).attr('class'), $(el).attr('id'), $(el).attr('alt'), $(el).attr('src')].join(' ')) || $(el).closest('[class*="logo" i],[id*="logo" i]').length > 0;
  const logoEl = imgs.find((el) => saysLogo(el) && inHeader(el)) ?? imgs.find((el) => inHeader(el) && $(el).closest('a[href="/"]').length > 0) ?? imgs.find(saysLogo);
  const logo = abs(logoEl ? $(logoEl).attr('src') : undefined);
  const favicon = abs($('link[rel~="icon"]').first().attr('href') ?? $('link[rel="shortcut icon"]').first().attr('href'));
  const ogImage = abs($('meta[property="og:image"]').attr('content'));
  const images: NonNullable<BrandingProfile['images']> = {};
  if (logo) {
    images.logo = logo;
    out.logo = logo;
  }
  if (favicon) images.favicon = favicon;
  if (ogImage) images.ogImage = ogImage;
  if (Object.keys(images).length) out.images = images;

  const scheme = $('meta[name="color-scheme"]').attr('content');
  const lum = background ? luminance(background) : undefined;
  if (scheme && /^\s*dark/.test(scheme)) out.colorScheme = 'dark';
  else if (lum !== undefined) out.colorScheme = lum < 0.4 ? 'dark' : 'light';
  else if (scheme) out.colorScheme = 'light';
  const name = $('meta[property="og:site_name"]').attr('content') ?? $('meta[name="application-name"]').attr('content') ?? (logoEl ? $(logoEl).attr('alt')?.replace(/\s*logo\s*/i, '') : undefined);
  if (name?.trim()) out.brandName = name.trim();
  return out;
}
