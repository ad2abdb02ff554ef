import { describe, expect, it } from 'vitest';
import { cleanMarkdown } from './clean.js';

const kept = (markdown: string) => cleanMarkdown(markdown).markdown;

describe('cleaning markdown without a model', () => {
  it('drops cookie and newsletter prompts, share bars and copyright lines', () => {
    const page = ['# Bread', '', 'We use cookies to improve your experience. Accept all', '', 'Knead the dough.', '', 'Share on | Facebook | Twitter', '', '© 2024 Example Ltd. All rights reserved.'].join('\n');
    expect(kept(page)).toBe('# Bread\n\nKnead the dough.');
  });

  it('drops the same prompts and notices on pages in other languages', () => {
    const page = ['# Brot', '', 'Wir verwenden Cookies, um Ihr Erlebnis zu verbessern.', '', 'Alle akzeptieren', '', 'Den Teig kneten.', '', 'Anzeige', '', '© 2024 Beispiel GmbH. Alle Rechte vorbehalten.'].join('\n');
    expect(kept(page)).toBe('# Brot\n\nDen Teig kneten.');
    expect(kept('Nous utilisons des cookies pour mesurer l’audience.\n\nPétrir la pâte.')).toBe('Pétrir la pâte.');
    expect(kept('Utilizamos cookies propias y de terceros.\n\nAmasar la masa.')).toBe('Amasar la masa.');
  });

  it('keeps prose that only mentions cookies, as a recipe does', () => {
    const page = ['Allow the cookies to cool on the tray, then use a spatula.', '', 'Store cookies in a tin; accept that they will not last.', '', 'These cookies are our policy for rainy days.'].join('\n');
    expect(kept(page)).toBe(page);
  });

  it('drops runs of bare links, but not inside a code block', () => {
    const links = ['[Home](/)', '[About](/about)', '[Blog](/blog)'];
    expect(kept(['Intro.', '', ...links, '', 'Body.'].join('\n'))).toBe('Intro.\n\nBody.');
    const code = ['Markdown links look like this:', '', '```', ...links, '```'].join('\n');
    expect(kept(code)).toBe(code);
  });
});
