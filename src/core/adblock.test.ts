import { describe, expect, it } from 'vitest';
import { isAdRequest } from './adblock.js';

describe('blockAds rules', () => {
  it('refuses listed hosts and their subdomains, and ad-server paths', () => {
    expect(isAdRequest('https://securepubads.g.doubleclick.net/tag/js/gpt.js')).toBe(true);
    expect(isAdRequest('https://www.google-analytics.com/collect?v=1')).toBe(true);
    expect(isAdRequest('https://cdn.example.com/adserver/banner.js')).toBe(true);
    expect(isAdRequest('https://example.com/static/prebid9.js')).toBe(true);
  });

  it('leaves look-alike hosts and ordinary resources alone', () => {
    expect(isAdRequest('https://notdoubleclick.net/app.js')).toBe(false);
    expect(isAdRequest('https://example.com/uploads/headline.png')).toBe(false);
    expect(isAdRequest('https://example.com/downloads/report.pdf')).toBe(false);
    expect(isAdRequest('not a url')).toBe(false);
  });
});
