import { describe, expect, it } from 'vitest';
import { menuProfile, productProfile } from './profiles.js';
import type { PageData } from './structured.js';

const noData = { items: [], meta: {} } as unknown as PageData;
const prices = (markdown: string) => {
  const menu = menuProfile(noData, markdown, 'https://bistro.example/menu');
  return { isMenu: menu.isMenu, currency: menu.currency, items: menu.sections.flatMap((s) => s.items.map((i) => [s.name, i.name, i.price])) };
};

describe('a menu read from a plain price list', () => {
  it('reads a price whose sign or code stands before or after it', () => {
    expect(prices('## Drinks\n\n- Espresso ..... $3\n- Café crème ..... 3,50 €\n- Matcha: JPY 600\n- Cold brew | 4.20 GBP')).toEqual({
      isMenu: true,
      currency: 'USD',
      items: [
        ['Drinks', 'Espresso', { amount: 3, currency: 'USD', formatted: '$3' }],
        ['Drinks', 'Café crème', { amount: 3.5, currency: 'EUR', formatted: '3,50 €' }],
        ['Drinks', 'Matcha', { amount: 600, currency: 'JPY', formatted: 'JPY 600' }],
        ['Drinks', 'Cold brew', { amount: 4.2, currency: 'GBP', formatted: '4.20 GBP' }],
      ],
    });
  });

  it('reads two decimals alone as a price of no stated currency, in lists and tables', () => {
    expect(prices('## Soups\n\n- Tomato soup — 5.50\n- Leek soup 6.00\n\n| Dish | Price |\n| --- | --- |\n| Fish pie | 12.50 |')).toEqual({
      isMenu: true,
      currency: null,
      items: [
        ['Soups', 'Tomato soup', { amount: 5.5, formatted: '5.50' }],
        ['Soups', 'Leek soup', { amount: 6, formatted: '6.00' }],
        ['Soups', 'Fish pie', { amount: 12.5, formatted: '12.50' }],
      ],
    });
  });

  it('takes neither whole numbers without a sign nor capitals that name no currency for prices', () => {
    expect(prices('## Contents\n\n- Chapter 12\n- Part 3\n- Appendix ABC 40\n- See page 7')).toEqual({ isMenu: false, currency: null, items: [] });
  });
});

describe('a product read from schema.org data', () => {
  it('reads a price written as the page shows it, with thousands and a decimal comma', () => {
    const page = { items: [{ types: ['Product'], props: { name: 'Sofa', offers: { price: '1.299,00 €', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' } } }], meta: {}, labelled: {} };
    expect(productProfile(page, 'https://shop.example/sofa')?.variants).toEqual([
      { title: 'Sofa', price: { amount: 1299, currency: 'EUR', formatted: '€1,299.00' }, availability: { inStock: true, text: 'InStock' } },
    ]);
  });
});
