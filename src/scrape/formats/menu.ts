/** The `menu` format: schema.org Menu data, else a price list read from the page, as a MenuProfile. */
import { z } from 'zod';
import { menuProfile } from '../../llm/offline/profiles.js';
import { defineFormat, needs } from './types.js';

export const menuFormat = defineFormat({
  type: 'menu',
  schema: z.object({ type: z.literal('menu') }),
  needs: needs({ html: true, markdown: true }),
  cost: () => 0,
  output: 'menu',
  description: "A restaurant menu (sections, items, prices, dietary labels) from schema.org Menu data or the page's price list.",
  stage: 'page',
  async run(_entry, r) {
    const menu = menuProfile(r.page.data(), r.page.markdown, r.page.url);
    r.doc.menu = menu;
    if (!menu.isMenu) r.warn('menu: the page does not look like a menu (no schema.org Menu data and no price list).');
    else if (menu.confidence < 0.9) r.warn('menu: read from the page\'s price list (no schema.org Menu data).');
  },
});
