/**
 * The `branding` format: colours, fonts, logo and icons from the page's CSS and markup, and, when a
 * browser rendered the page, from the computed styles of its real elements.
 */
import { z } from 'zod';
import { brandingProfile } from '../../llm/offline/branding.js';
import { brandVoice } from '../../llm/page-profiles.js';
import { withRenderedStyles } from './branding-rendered.js';
import { withModel } from './model-fallback.js';
import { defineFormat, needs } from './types.js';

export const brandingFormat = defineFormat({
  type: 'branding',
  schema: z.object({ type: z.literal('branding') }),
  needs: needs({ html: true, markdown: true, styles: true, model: 'optional' }),
  cost: () => 0,
  output: 'branding',
  description:
    "The site's brand: colours, fonts, logo, favicon, og:image and colour scheme, read from its CSS and markup, and from the computed styles of its elements when a browser renders the page. With a model, also its tone and personality.",
  stage: 'page',
  async run(_entry, r) {
    const fromMarkup = brandingProfile(r.page.html ?? '', r.page.url);
    const styles = r.page.styles;
    const profile = styles ? withRenderedStyles(fromMarkup, styles) : fromMarkup;
    r.doc.branding = profile;
    const source = styles ? "colours and fonts from the rendered page's computed styles, logo and icons from its markup" : "read from the page's style sheets and markup";
    if (!r.model) return r.warn(`branding: ${source}; tone and personality are left out (they need a model).`);
    const voice = await withModel(r, 'branding', () => brandVoice(r.model!, r.page.markdown));
    if (voice) {
      Object.assign(profile, voice);
      return r.warn(`branding: ${source}; tone and personality judged by the model.`);
    }
    // Undefined: the model could not be used, and withModel has said why.
    r.warn(`branding: ${source}; tone and personality are left out${voice === null ? " (the model's answer did not fit their shape)" : ''}.`);
  },
});
