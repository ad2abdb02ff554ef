/**
 * The `branding` format: colours, fonts, logo and icons from the page's CSS and markup, and, when a
 * browser rendered the page, from the computed styles of its real elements.
 */
import { z } from 'zod';
import { brandingProfile } from '../../llm/offline/branding.js';
import { withRenderedStyles } from './branding-rendered.js';
import { defineFormat, needs } from './types.js';

export const brandingFormat = defineFormat({
  type: 'branding',
  schema: z.object({ type: z.literal('branding') }),
  needs: needs({ html: true, styles: true, model: 'optional' }),
  cost: () => 0,
  output: 'branding',
  description:
    "The site's brand: colours, fonts, logo, favicon, og:image and colour scheme, read from its CSS and markup, and from the computed styles of its elements when a browser renders the page.",
  stage: 'page',
  async run(_entry, r) {
    const fromMarkup = brandingProfile(r.page.html ?? '', r.page.url);
    const styles = r.page.styles;
    r.doc.branding = styles ? withRenderedStyles(fromMarkup, styles) : fromMarkup;
    r.warn(
      styles
        ? "branding: colours and fonts from the rendered page's computed styles, logo and icons from its markup; tone and personality are left out (they need a model)."
        : "branding: read from the page's style sheets and markup; tone and personality are left out (they need a model).",
    );
  },
});
