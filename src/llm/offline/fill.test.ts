import { describe, expect, it } from 'vitest';
import { fillSchema } from './fill.js';

/** Fills one property of the given type from a labelled value on the page. */
const fillOne = (type: string, value: string) => fillSchema({ type: 'object', properties: { price: { type } } }, { items: [], meta: {}, labelled: { Price: value } }).value.price;

describe('filling a schema without a model', () => {
  it('reads numbers written the ways prices and counts are', () => {
    expect(fillOne('number', '$1,299.00')).toBe(1299);
    expect(fillOne('number', '1.299,50 €')).toBe(1299.5);
    expect(fillOne('number', '1.299.000 €')).toBe(1299000);
    expect(fillOne('number', '12 345,5')).toBe(12345.5);
    expect(fillOne('number', '4.5 out of 5')).toBe(4.5);
    expect(fillOne('number', 'Total: 7.')).toBe(7);
    expect(fillOne('number', '−3 °C')).toBe(-3);
    expect(fillOne('integer', '1,024 pages')).toBe(1024);
    expect(fillOne('number', 'on request')).toBeUndefined();
  });

  it('reads a list written as one value into an array', () => {
    const schema = { type: 'object', properties: { colours: { type: 'array', items: { type: 'string' } }, sizes: { type: 'array', items: { type: 'number' } } } };
    const page = { items: [], meta: {}, labelled: { Colours: 'red, green; blue', Sizes: '38 · 40 · 42' } };
    expect(fillSchema(schema, page).value).toEqual({ colours: ['red', 'green', 'blue'], sizes: [38, 40, 42] });
    const image = 'https://img.example/w_400,h_300/shoe.jpg';
    expect(fillSchema({ type: 'object', properties: { image: { type: 'array', items: { type: 'string' } } } }, { items: [], meta: { 'og:image': image }, labelled: {} }).value).toEqual({ image: [image] });
  });

  it('leaves out and names what no source gives', () => {
    const filled = fillSchema({ type: 'object', properties: { price: { type: 'number' }, colour: { type: 'string' } } }, { items: [], meta: {}, labelled: { Price: '12' } });
    expect(filled.value).toEqual({ price: 12 });
    expect(filled.missing).toEqual(['colour']);
  });
});
