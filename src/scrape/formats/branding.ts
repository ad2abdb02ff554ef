/** The `branding` format: colours, fonts, logo and icons from the page's CSS and markup. */
import { z } from 'zod';
import { brandingProfile } from '../../llm/offline/branding.js';
import { defineFormat, needs } from './types.js';

export const brandingFormat = defineFormat({
  type: 'branding',
  schema: z.object({ type: z.literal('branding') }),
  needs: needs({ html: true, model: 'optional' }),
  cost: () => 0,
  output: 'branding',
  description: "The site's brand: colours, fonts, logo, favicon, og:image and colour scheme, read from its CSS and markup.",
  stage: 'page',
  async run(_entry, r) {
    r.doc.branding = brandingProfile(r.page.html ?? '', r.page.url);
    r.warn('branding: read from the page\'s style sheets and markup; tone and personality are left out (they need a model).');
  },
});
