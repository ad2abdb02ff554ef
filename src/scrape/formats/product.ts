/** The `product` format: schema.org Product/Offer (or OpenGraph product) data as a ProductProfile. */
import { z } from 'zod';
import { productProfile } from '../../llm/offline/profiles.js';
import { defineFormat, needs } from './types.js';

export const productFormat = defineFormat({
  type: 'product',
  schema: z.object({ type: z.literal('product') }),
  needs: needs({ html: true }),
  cost: () => 0,
  output: 'product',
  description: "The product the page sells (title, brand, variants with price and availability), from the page's structured data.",
  stage: 'page',
  async run(_entry, r) {
    const p = productProfile(r.page.data(), r.page.url);
    if (p) r.doc.product = p;
    else r.warn('product: the page states no product in its structured data (schema.org Product or OpenGraph product tags).');
  },
});
