import { describe, expect, it } from 'vitest';
import { brandingProfile } from './branding.js';

const page = (head: string, body = '') => `<html><head>${head}</head><body>${body}</body></html>`;

describe('branding read from the page without a model', () => {
  it('follows custom properties that name other custom properties', () => {
    const css = '<style>:root { --blue-600: #1d4ed8; --color-primary: var(--blue-600); --accent: var(--missing, #f97316); } .ok, .done { color: #22c55e } .tag { border-color: #22c55e }</style>';
    expect(brandingProfile(page(css), 'https://a.example/').colors).toMatchObject({ primary: '#1d4ed8', accent: '#f97316' });
  });

  it('takes the property named for the role over one that only mentions it', () => {
    const css = '<style>:root { --color-primary-text: #ffffff; --color-primary-hover: #0b5; --color-primary: #ff5a1f; }</style>';
    expect(brandingProfile(page(css), 'https://a.example/').colors?.primary).toBe('#ff5a1f');
  });

  it("takes the site's own logo in its header over logos further down the page", () => {
    const body = '<main><img class="client-logo" src="/clients/acme.png"></main><header><a href="/"><img src="/brand.svg" alt="Fixture logo"></a></header>';
    const html = page('', body);
    expect(brandingProfile(html, 'https://a.example/').logo).toBe('https://a.example/brand.svg');
    // Before the header in the markup, too.
    const first = page('', '<header><a href="/"><img src="/brand.svg" alt="Fixture"></a></header><section class="partner-logos"><img src="/p.png" alt="Partner logo"></section>');
    expect(brandingProfile(first, 'https://a.example/').logo).toBe('https://a.example/brand.svg');
  });
});
