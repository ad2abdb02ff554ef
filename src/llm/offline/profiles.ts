/**
 * The `product` and `menu` formats without a model: schema.org Product/Offer and
 * Restaurant/Menu data mapped onto the SDK's ProductProfile and MenuProfile shapes, with a plain
 * price-list reading of the markdown as the menu's fallback.
 */
import { readNumber } from './numbers.js';
import type { Item, PageData } from './structured.js';

export interface Price {
  amount: number;
  currency?: string;
  formatted?: string;
}
export interface ProductVariant {
  id?: string;
  sku?: string;
  title?: string;
  price?: Price;
  availability: { inStock: boolean; text?: string };
  images?: { url: string; alt?: string }[];
}
export interface ProductProfile {
  title: string;
  url: string;
  brand?: string;
  category?: string;
  description?: string;
  variants: ProductVariant[];
}
export interface MenuItem {
  id: string;
  name: string;
  description?: string;
  images: { url: string; alt?: string }[];
  price?: Price;
  availability: { inStock: boolean; text?: string };
  dietary: string[];
  calories?: number;
  optionGroups: unknown[];
  identifiers: { merchantItemId?: string };
  url?: string;
  sourceUrl: string;
}
export interface MenuProfile {
  isMenu: boolean;
  confidence: number;
  merchant: { name: string; type?: string | null; location?: unknown };
  currency?: string | null;
  sections: { id: string; name: string; description?: string; items: MenuItem[] }[];
  sourceUrl: string;
}

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const str = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return str(v[0]);
  if (v && typeof v === 'object') return str((v as Record<string, unknown>).name ?? (v as Record<string, unknown>)['@id']);
  return undefined;
};
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function price(amount: unknown, currency: unknown): Price | undefined {
  const a = readNumber(amount);
  if (a === undefined) return undefined;
  const c = str(currency);
  const p: Price = { amount: a };
  if (c) {
    p.currency = c;
    try {
      p.formatted = new Intl.NumberFormat('en-US', { style: 'currency', currency: c }).format(a);
    } catch {
      // Not an ISO currency code: the amount alone stands.
    }
  }
  return p;
}

function availability(v: unknown): { inStock: boolean; text?: string } {
  const s = str(v);
  if (!s) return { inStock: true };
  const word = s.replace(/^.*[/#]/, '');
  return { inStock: !/OutOfStock|SoldOut|Discontinued|PreSale|PreOrder/i.test(word), text: word };
}

function images(v: unknown, alt?: string): { url: string; alt?: string }[] {
  return asList(v)
    .map((x) => str(typeof x === 'object' ? (obj(x).url ?? obj(x).contentUrl) : x))
    .filter((u): u is string => Boolean(u))
    .map((url) => (alt ? { url, alt } : { url }));
}

const isType = (i: Item, ...names: string[]) => i.types.some((t) => names.includes(t));

function variantsOf(p: Record<string, unknown>): ProductVariant[] {
  const title = str(p.name);
  const imgs = images(p.image, title);
  const offers = asList(p.offers).flatMap((o) => (obj(o).offers ? asList(obj(o).offers) : [o]));
  const out: ProductVariant[] = offers.map((raw) => {
    const o = obj(raw);
    const v: ProductVariant = { availability: availability(o.availability) };
    const sku = str(o.sku ?? p.sku);
    if (sku) v.sku = sku;
    const name = str(o.name) ?? title;
    if (name) v.title = name;
    const pr = price(o.price ?? o.lowPrice ?? obj(o.priceSpecification).price, o.priceCurrency ?? obj(o.priceSpecification).priceCurrency);
    if (pr) v.price = pr;
    if (imgs.length) v.images = imgs;
    return v;
  });
  if (out.length === 0) out.push({ availability: { inStock: true }, ...(title ? { title } : {}), ...(imgs.length ? { images: imgs } : {}) });
  return out;
}

export function productProfile(page: PageData, url: string): ProductProfile | undefined {
  const item = page.items.find((i) => isType(i, 'Product', 'ProductGroup', 'IndividualProduct'));
  if (item) {
    const p = item.props;
    const title = str(p.name);
    if (!title) return undefined;
    const profile: ProductProfile = { title, url: str(p.url) ?? url, variants: [] };
    const brand = str(p.brand);
    if (brand) profile.brand = brand;
    const category = str(p.category);
    if (category) profile.category = category;
    const description = str(p.description);
    if (description) profile.description = description;
    const hasVariant = asList(p.hasVariant);
    profile.variants = hasVariant.length ? hasVariant.flatMap((v) => variantsOf({ ...obj(v), name: obj(v).name ?? p.name })) : variantsOf(p);
    return profile;
  }
  // OpenGraph product pages: og:type product with product:price:* tags.
  const m = page.meta;
  if (m['og:type']?.includes('product') && (m['og:title'] ?? m.title)) {
    const v: ProductVariant = { availability: availability(m['product:availability'] ?? m['og:availability']) };
    const pr = price(m['product:price:amount'] ?? m['og:price:amount'], m['product:price:currency'] ?? m['og:price:currency']);
    if (pr) v.price = pr;
    const profile: ProductProfile = { title: (m['og:title'] ?? m.title)!, url: m['og:url'] ?? url, variants: [v] };
    if (m['og:description']) profile.description = m['og:description'];
    if (m['product:brand']) profile.brand = m['product:brand'];
    return profile;
  }
  return undefined;
}

const DIETS: Record<string, string> = {
  VeganDiet: 'vegan',
  VegetarianDiet: 'vegetarian',
  GlutenFreeDiet: 'gluten-free',
  HalalDiet: 'halal',
  KosherDiet: 'kosher',
  LowCalorieDiet: 'low-calorie',
  LowFatDiet: 'low-fat',
  LowLactoseDiet: 'low-lactose',
  LowSaltDiet: 'low-salt',
  DiabeticDiet: 'diabetic',
  HinduDiet: 'hindu',
};

/** An id from a name: accents off their letters ("Café" is cafe), any script's letters kept. */
const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

function menuItem(raw: unknown, sourceUrl: string, section: string, n: number): MenuItem | undefined {
  const o = obj(raw);
  const name = str(o.name);
  if (!name) return undefined;
  const offer = obj(asList(o.offers)[0]);
  const item: MenuItem = {
    id: str(o['@id']) ?? `${slug(section)}-${slug(name) || n}`,
    name,
    images: images(o.image, name),
    availability: availability(offer.availability),
    dietary: asList(o.suitableForDiet)
      .map((d) => str(d)?.replace(/^.*[/#]/, ''))
      .filter((d): d is string => Boolean(d))
      .map((d) => DIETS[d] ?? d),
    optionGroups: [],
    identifiers: {},
    sourceUrl,
  };
  const description = str(o.description);
  if (description) item.description = description;
  const pr = price(offer.price ?? o.price, offer.priceCurrency ?? o.priceCurrency);
  if (pr) item.price = pr;
  const calories = readNumber(obj(o.nutrition).calories);
  if (calories !== undefined) item.calories = calories;
  const id = str(o.identifier ?? o.sku);
  if (id) item.identifiers.merchantItemId = id;
  return item;
}

function sectionsOf(menu: Record<string, unknown>, sourceUrl: string): MenuProfile['sections'] {
  const sections = asList(menu.hasMenuSection).map((raw, i) => {
    const s = obj(raw);
    const name = str(s.name) ?? `Section ${i + 1}`;
    const items = asList(s.hasMenuItem)
      .map((it, n) => menuItem(it, sourceUrl, name, n))
      .filter((x): x is MenuItem => Boolean(x));
    const out: MenuProfile['sections'][number] = { id: slug(name) || `section-${i + 1}`, name, items };
    const d = str(s.description);
    if (d) out.description = d;
    return out;
  });
  const loose = asList(menu.hasMenuItem)
    .map((it, n) => menuItem(it, sourceUrl, 'menu', n))
    .filter((x): x is MenuItem => Boolean(x));
  if (loose.length) sections.push({ id: 'menu', name: str(menu.name) ?? 'Menu', items: loose });
  return sections;
}

/** Currency signs a price list writes, and the code each stands for. */
const SIGNS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₺': 'TRY', '₽': 'RUB' };
const CODES = new Set(Intl.supportedValuesOf('currency'));
const AMOUNT = String.raw`(\d{1,4}(?:[.,]\d{2})?)`;
const SIGN = String.raw`([$€£¥₹₩₺₽]|[A-Z]{3}(?![A-Za-z]))`;
/**
 * "Margherita pizza ..... $12.50" under a heading: the price list most menus are. The name, then
 * dots, a dash, a colon or a pipe (or only a space), then the price: its sign or code before or
 * after it ("$12.50", "12,50 €", "EUR 12.50"), or two decimals alone ("12.50"), as many menus
 * leave the currency to the reader. A table row's closing pipe may follow.
 */
const PRICE_LINE = new RegExp(
  String.raw`^(?:[-*+]\s+)?(?:\*\*)?(.+?)(?:\*\*)?\s*(?:[.…·\-–—:|]+\s*)?(${SIGN}\s?${AMOUNT}|${AMOUNT}\s?${SIGN}|(\d{1,4}[.,]\d{2}))\s*\|?\s*$`,
  'u',
);

/** The price a line ends with, as PRICE_LINE reads it; undefined when it ends with none. */
function linePrice(line: string): { name: string; price: Price } | undefined {
  const m = PRICE_LINE.exec(line.trim());
  if (!m) return undefined;
  const sign = m[3] ?? m[6];
  const currency = sign === undefined ? undefined : (SIGNS[sign] ?? (CODES.has(sign) ? sign : undefined));
  // Three capitals that name no currency are a word, not a price's code.
  if (sign !== undefined && currency === undefined) return undefined;
  const amount = Number((m[4] ?? m[5] ?? m[7])!.replace(',', '.'));
  const name = m[1]!.replace(/^\|\s*/, '').replace(/\s*\|$/, '').trim();
  if (!/\p{L}/u.test(name)) return undefined;
  return { name, price: { amount, ...(currency ? { currency } : {}), formatted: m[2]! } };
}

function menuFromText(markdown: string, sourceUrl: string): MenuProfile['sections'] {
  const sections: MenuProfile['sections'] = [];
  let current: MenuProfile['sections'][number] | undefined;
  for (const line of markdown.split('\n')) {
    const h = line.match(/^#{1,6}\s+(.+)/);
    if (h) {
      sections.push((current = { id: slug(h[1]!) || `section-${sections.length + 1}`, name: h[1]!.trim(), items: [] }));
      continue;
    }
    const item = linePrice(line);
    if (!item) continue;
    if (!current) sections.push((current = { id: 'menu', name: 'Menu', items: [] }));
    const { name, price } = item;
    current.items.push({
      id: `${current.id}-${slug(name) || current.items.length}`,
      name,
      images: [],
      price,
      availability: { inStock: true },
      dietary: [],
      optionGroups: [],
      identifiers: {},
      sourceUrl,
    });
  }
  return sections.filter((s) => s.items.length > 0);
}

const merchantOf = (page: PageData) => page.items.find((i) => isType(i, 'Restaurant', 'FoodEstablishment', 'CafeOrCoffeeShop', 'Bakery', 'BarOrPub', 'FastFoodRestaurant'));

/** The page's schema.org Menu: an item of its own, or a merchant's `hasMenu`. */
function menuData(page: PageData): Item | undefined {
  const merchantItem = merchantOf(page);
  return page.items.find((i) => isType(i, 'Menu')) ?? (merchantItem && obj(merchantItem.props.hasMenu)['@type'] ? { types: ['Menu'], props: obj(merchantItem.props.hasMenu) } : undefined);
}

/** Whether the page states its menu as schema.org data (which needs no reading of its text). */
export const statesMenu = (page: PageData): boolean => menuData(page) !== undefined;

export function menuProfile(page: PageData, markdown: string, sourceUrl: string): MenuProfile {
  const merchantItem = merchantOf(page);
  const menuItemData = menuData(page);
  const merchant: MenuProfile['merchant'] = {
    name: str(merchantItem?.props.name) ?? page.meta['og:site_name'] ?? page.meta.title ?? '',
    type: merchantItem?.types[0] ?? null,
  };
  if (merchantItem?.props.address) merchant.location = merchantItem.props.address;
  if (menuItemData) {
    const sections = sectionsOf(menuItemData.props, sourceUrl);
    const currency = sections.flatMap((s) => s.items).find((i) => i.price?.currency)?.price?.currency ?? null;
    return { isMenu: sections.length > 0, confidence: sections.length > 0 ? 0.9 : 0.2, merchant, currency, sections, sourceUrl };
  }
  const sections = menuFromText(markdown, sourceUrl);
  const count = sections.reduce((n, s) => n + s.items.length, 0);
  const currency = sections.flatMap((s) => s.items).find((i) => i.price?.currency)?.price?.currency ?? null;
  const isMenu = count >= 3;
  return { isMenu, confidence: isMenu ? (merchantItem ? 0.7 : 0.5) : 0.1, merchant, currency, sections: isMenu ? sections : [], sourceUrl };
}
