/**
 * The `menu` format as a MenuProfile: schema.org Menu data; else, with a model, the model's
 * reading of the page's text; else the price list read from it by rule.
 */
import { z } from 'zod';
import { menuProfile, statesMenu } from '../../llm/offline/profiles.js';
import { menuByModel } from '../../llm/page-profiles.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

/** How sure a menu the model read is: below stated schema.org data, above a price list read by rule. */
const MODEL_CONFIDENCE = 0.8;

export const menuFormat = defineFormat({
  type: 'menu',
  schema: z.object({ type: z.literal('menu') }),
  needs: needs({ html: true, markdown: true, model: 'optional' }),
  cost: () => 0,
  output: 'menu',
  description: "A restaurant menu (sections, items, prices, dietary labels) from schema.org Menu data, else read by the model or from the page's price list.",
  stage: 'page',
  async run(_entry, r) {
    const data = r.page.data();
    if (r.model && !statesMenu(data)) {
      const items = await withModel(r, 'menu', () => menuByModel(r.model!, r.page.markdown));
      if (items) {
        // The page's own merchant data, when it has some, stands beside the model's menu.
        r.doc.menu = { ...menuProfile({ ...data, items: [...data.items, ...items] }, '', r.page.url), confidence: MODEL_CONFIDENCE };
        return r.warn('menu: read from the page\'s text by the model (no schema.org Menu data).');
      }
      if (items === null) {
        r.doc.menu = menuProfile(data, '', r.page.url);
        return r.warn('menu: the model found no menu on the page (and it has no schema.org Menu data).');
      }
    }
    const menu = menuProfile(data, r.page.markdown, r.page.url);
    r.doc.menu = menu;
    if (!menu.isMenu) r.warn('menu: the page does not look like a menu (no schema.org Menu data and no price list).');
    else if (menu.confidence < 0.9) r.warn('menu: read from the page\'s price list (no schema.org Menu data).');
  },
});
