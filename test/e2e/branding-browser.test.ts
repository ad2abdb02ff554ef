/**
 * `branding` with the browser engine: colours and fonts from the computed styles of the rendered
 * page's elements, which see what its CSS text hides (script-set styles, inherited and cascaded
 * rules). The HTTP engine keeps reading the CSS text and markup.
 */
import { describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { useE2eServer } from '../helpers/e2e-server.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
if (!chromium) console.warn('rendered branding tests skipped: no Chromium (apt-get install chromium)');

describe.skipIf(!chromium)('branding from computed styles', () => {
  const e2e = useE2eServer();
  const url = () => `${e2e.site.url}/model/brand-rendered`;

  it('reads the colours and fonts the browser renders, not those the CSS text suggests', async () => {
    // waitFor sends the scrape through the browser.
    const doc = await e2e.fc.scrape(url(), { formats: ['branding'], waitFor: 100, maxAge: 0 });
    expect(doc.branding).toMatchObject({
      colorScheme: 'dark',
      colors: { primary: '#0fa37f', accent: '#f5b301', link: '#f5b301', background: '#0b1e3a', textPrimary: '#e8eef7' },
      typography: {
        fontFamilies: { primary: 'Source Serif 4', heading: 'Bebas Neue' },
        fontStacks: { primary: ['Source Serif 4', 'Georgia', 'serif'], heading: ['Bebas Neue', 'Impact', 'sans-serif'] },
      },
      components: { buttonPrimary: { background: '#0fa37f', textColor: '#ffffff', borderColor: '#0fa37f', borderRadius: '6px' } },
    });
    expect(doc.branding?.fonts?.map((f) => f.family)).toEqual(expect.arrayContaining(['Source Serif 4', 'Bebas Neue']));
    expect(doc.warning).toContain('computed styles');
  });

  it('without the browser, reads the CSS text as before', async () => {
    const doc = await e2e.fc.scrape(url(), { formats: ['branding'], maxAge: 0 });
    // The unused custom property is all the style sheet offers.
    expect(doc.branding?.colors?.primary).toBe('#aa00aa');
    expect(doc.branding?.colors?.link).toBeUndefined();
    expect(doc.warning).toContain('style sheets and markup');
  });
});
