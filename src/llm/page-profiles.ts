/**
 * What a page is, read by the model for the formats that describe it: the product it sells, the
 * menu it lists, the voice of its brand. Product and menu answers come in schema.org's shapes, so
 * the profiles are built from them as from data the page states itself.
 */
import { splitByTokens } from './chunk.js';
import type { JsonSchema } from './offline/fill.js';
import type { Item } from './offline/structured.js';
import { prompts, taskMessages } from './prompts.js';
import { extractJson } from './tasks.js';
import type { ModelSession } from './types.js';

export interface BrandVoice {
  tone: { voice: string; emojiUsage: string };
  personality: { tone: string; energy: string; targetAudience: string };
}

const words = { type: 'string', minLength: 1, maxLength: 200 };
const BRAND_VOICE: JsonSchema = {
  type: 'object',
  properties: {
    tone: { type: 'object', properties: { voice: words, emojiUsage: { enum: ['none', 'rare', 'frequent'] } }, required: ['voice', 'emojiUsage'] },
    personality: {
      type: 'object',
      properties: {
        tone: { enum: ['professional', 'playful', 'modern', 'traditional', 'minimalist', 'bold'] },
        energy: { enum: ['low', 'medium', 'high'] },
        targetAudience: words,
      },
      required: ['tone', 'energy', 'targetAudience'],
    },
  },
  required: ['tone', 'personality'],
};

/** The brand's tone and personality, judged from the opening of its page by the small model; null when its answer breaks the schema. */
export async function brandVoice(m: ModelSession, page: string): Promise<BrandVoice | null> {
  const out = await m.json({ messages: taskMessages(prompts.brandVoice, splitByTokens(page, m.contextTokens)[0] ?? ''), schema: BRAND_VOICE, name: 'brand_voice', small: true });
  return out.valid ? (out.value as unknown as BrandVoice) : null;
}

const text = { type: 'string' };
const priced = { price: { type: 'number' }, priceCurrency: { type: 'string', description: 'ISO 4217 code, e.g. USD' } };
/** A list of things with a name (and perhaps a description) and these properties. */
const named = (properties: Record<string, unknown>): JsonSchema => ({
  type: 'array',
  items: { type: 'object', properties: { name: text, description: text, ...properties }, required: ['name'] },
});

/**
 * What the page sells, as the model reads its text, in the schema.org shape the page would have
 * stated it in: the product profile is then built from it as from the page's own data.
 */
const PRODUCT: JsonSchema = {
  type: 'object',
  properties: {
    isProduct: { type: 'boolean', description: 'whether the page sells one product' },
    name: text,
    brand: text,
    category: text,
    description: text,
    offers: {
      type: 'array',
      description: 'one per variant (size, colour, ...), or one',
      items: { type: 'object', properties: { name: text, sku: text, ...priced, availability: { enum: ['InStock', 'OutOfStock', 'PreOrder', 'Discontinued'] } } },
    },
  },
  required: ['isProduct'],
};

/** A restaurant's menu, as the model reads the page's text, in schema.org's Menu shape. */
const MENU: JsonSchema = {
  type: 'object',
  properties: {
    isMenu: { type: 'boolean', description: 'whether the page is a menu of dishes or drinks' },
    restaurant: text,
    hasMenuSection: named({
      hasMenuItem: named({
        ...priced,
        suitableForDiet: { type: 'array', items: text, description: 'e.g. vegan, vegetarian, gluten-free' },
        nutrition: { type: 'object', properties: { calories: { type: 'number' } } },
      }),
    }),
  },
  required: ['isMenu'],
};

/** The product the page sells, read by the model; null when it finds none. */
export async function productByModel(m: ModelSession, page: string): Promise<Item | null> {
  const out = await extractJson(m, page, PRODUCT, 'the product this page sells, if it sells one');
  const v = out.value as Record<string, unknown>;
  return v.isProduct === true && typeof v.name === 'string' && v.name.trim() ? { types: ['Product'], props: v } : null;
}

/** The restaurant and its menu, read by the model; null when the page is no menu. */
export async function menuByModel(m: ModelSession, page: string): Promise<Item[] | null> {
  const out = await extractJson(m, page, MENU, 'the menu of dishes and drinks on this page, if it is one');
  const v = out.value as Record<string, unknown>;
  if (v.isMenu !== true || !Array.isArray(v.hasMenuSection) || v.hasMenuSection.length === 0) return null;
  const menu: Item = { types: ['Menu'], props: { hasMenuSection: v.hasMenuSection } };
  return typeof v.restaurant === 'string' && v.restaurant.trim() ? [{ types: ['Restaurant'], props: { name: v.restaurant } }, menu] : [menu];
}
