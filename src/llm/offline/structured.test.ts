import { describe, expect, it } from 'vitest';
import { readPageData } from './structured.js';

const ld = (body: string) => `<html><head><script type="application/ld+json">${body}</script></head><body></body></html>`;
const names = (html: string) => readPageData(html).items.map((i) => i.props.name);

describe('reading structured data', () => {
  it('reads JSON-LD blocks, a @graph and arrays of items', () => {
    expect(names(ld('{"@type":"Product","name":"Lamp"}'))).toEqual(['Lamp']);
    expect(names(ld('{"@graph":[{"@type":"Organization","name":"Acme"},{"@type":"Product","name":"Lamp"}]}'))).toEqual(['Acme', 'Lamp']);
    expect(names(ld('[{"@type":"Product","name":"A"},{"@type":"Product","name":"B"}]'))).toEqual(['A', 'B']);
  });

  it('mends what pages commonly get wrong in JSON-LD', () => {
    expect(names(ld('{"@type":"Product","name":"Desk\nLamp","description":"A\tlamp",}'))).toEqual(['Desk Lamp']);
    expect(names(ld('//<![CDATA[\n{"@type":"Product","name":"Lamp"}\n//]]>'))).toEqual(['Lamp']);
    expect(names(ld('<!-- {"@type":"Product","name":"Lamp"} -->'))).toEqual(['Lamp']);
  });

  it('skips a block that is past mending, and keeps the others', () => {
    const html = ld('{"@type":"Product", name: Lamp}') + ld('{"@type":"Product","name":"Desk"}');
    expect(names(html)).toEqual(['Desk']);
  });
});
