import { describe, expect, it } from 'vitest';
import type { ElementStyle, RenderedStyles } from '../types.js';
import { withRenderedStyles } from './branding-rendered.js';

const el = (color: string, backgroundColor = 'rgba(0, 0, 0, 0)', fontFamily = 'Arial, sans-serif'): ElementStyle => ({ color, backgroundColor, fontFamily });
const styles = (s: Partial<RenderedStyles> = {}): RenderedStyles => ({
  colorScheme: 'normal',
  root: el('rgb(0, 0, 0)'),
  body: el('rgb(34, 34, 34)', 'rgb(255, 255, 255)', '"Inter", Arial, sans-serif'),
  headings: [],
  links: [],
  buttons: [],
  code: [],
  ...s,
});

describe('branding from computed styles', () => {
  it('takes the background from the body, else the root, else what the CSS said', () => {
    expect(withRenderedStyles({}, styles()).colors?.background).toBe('#ffffff');
    expect(withRenderedStyles({}, styles({ body: el('rgb(0, 0, 0)'), root: el('rgb(0, 0, 0)', 'rgb(16, 16, 16)') })).colors?.background).toBe('#101010');
    const none = styles({ body: el('rgb(0, 0, 0)'), root: el('rgb(0, 0, 0)') });
    expect(withRenderedStyles({ colors: { background: '#fafafa' } }, none).colors?.background).toBe('#fafafa');
    // Nothing painted and nothing declared: the browser's own canvas.
    expect(withRenderedStyles({}, none)).toMatchObject({ colors: { background: '#ffffff' }, colorScheme: 'light' });
  });

  it('makes the commonest coloured button fill primary and a coloured link accent; greys are no brand', () => {
    const s = styles({
      buttons: [el('rgb(255, 255, 255)', 'rgb(200, 200, 200)'), el('rgb(255, 255, 255)', 'rgb(255, 90, 31)'), el('rgb(255, 255, 255)', 'rgb(255, 90, 31)')],
      links: [el('rgb(31, 143, 255)'), el('rgb(31, 143, 255)'), el('rgb(51, 51, 51)')],
    });
    const b = withRenderedStyles({ colors: { primary: '#aa00aa', secondary: '#ff5a1f' } }, s);
    expect(b.colors).toMatchObject({ primary: '#ff5a1f', accent: '#1f8fff', link: '#1f8fff', textPrimary: '#222222' });
    // The CSS text's secondary turned out to be the primary: it is not kept twice.
    expect(b.colors?.secondary).toBeUndefined();
    expect(b.components?.buttonPrimary).toEqual({ background: '#ff5a1f', textColor: '#ffffff' });
  });

  it('without a coloured button, a coloured link is the primary', () => {
    expect(withRenderedStyles({}, styles({ links: [el('rgb(0, 102, 204)')] })).colors).toMatchObject({ primary: '#0066cc', link: '#0066cc' });
  });

  it('reads font families and stacks from the body, the first heading and code, and ranks the fonts in use', () => {
    const s = styles({
      headings: [el('rgb(0, 0, 0)', 'rgba(0, 0, 0, 0)', '"Playfair Display", serif'), el('rgb(0, 0, 0)', 'rgba(0, 0, 0, 0)', '"Playfair Display", serif')],
      code: [el('rgb(0, 0, 0)', 'rgba(0, 0, 0, 0)', '"JetBrains Mono", monospace')],
    });
    const b = withRenderedStyles({ fonts: [{ family: 'Unused Display', count: 3 }] }, s);
    expect(b.typography).toEqual({
      fontFamilies: { primary: 'Inter', heading: 'Playfair Display', code: 'JetBrains Mono' },
      fontStacks: { primary: ['Inter', 'Arial', 'sans-serif'], heading: ['Playfair Display', 'serif'] },
    });
    expect(b.fonts).toEqual([
      { family: 'Playfair Display', count: 2 },
      { family: 'Inter', count: 1 },
      { family: 'JetBrains Mono', count: 1 },
      { family: 'Unused Display', count: 3 },
    ]);
  });

  it('calls a dark painted background a dark scheme', () => {
    expect(withRenderedStyles({ colorScheme: 'light' }, styles({ body: el('rgb(232, 238, 247)', 'rgb(11, 30, 58)') })).colorScheme).toBe('dark');
  });
});
