/**
 * The `product` format: schema.org Product/Offer (or OpenGraph product) data as a ProductProfile;
 * for a page that states none, the model's reading of its text when a model is configured.
 */
import { z } from 'zod';
import { productProfile } from '../../llm/offline/profiles.js';
import { productByModel } from '../../llm/page-profiles.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

export const productFormat = defineFormat({
  type: 'product',
  schema: z.object({ type: z.literal('product') }),
  needs: needs({ html: true, markdown: true, model: 'optional' }),
  cost: () => 0,
  output: 'product',
  description: "The product the page sells (title, brand, variants with price and availability), from the page's structured data, or read by the model from its text.",
  stage: 'page',
  async run(_entry, r) {
    const stated = productProfile(r.page.data(), r.page.url);
    if (stated) {
      r.doc.product = stated;
      return;
    }
    if (r.model) {
      const item = await withModel(r, 'product', () => productByModel(r.model!, r.page.markdown));
      const read = item ? productProfile({ items: [item], meta: {}, labelled: {} }, r.page.url) : undefined;
      if (read) {
        r.doc.product = read;
        return r.warn('product: read from the page\'s text by the model (the page states no product in its structured data).');
      }
      if (item === null) return r.warn('product: the page states no product in its structured data, and the model found none in its text.');
    }
    r.warn('product: the page states no product in its structured data (schema.org Product or OpenGraph product tags).');
  },
});
