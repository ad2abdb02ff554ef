import { afterAll, describe, expect, it } from 'vitest';
import { transformPage } from './index.js';
import { createTransformer } from './pool.js';
import type { TransformOptions, TransformWants } from '../types.js';

const opts: TransformOptions = { baseUrl: 'https://example.com/a', onlyMainContent: true, includeTags: [], excludeTags: [], removeBase64Images: true };
const wants: TransformWants = { markdown: true, html: false, links: true, images: false };
const page = (n: number) => `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>Body of page ${n}, long enough to be content. <a href="/p${n}">next</a></p></main></body></html>`;

describe('the transform pool', () => {
  const pool = createTransformer(2);
  afterAll(() => pool.close());

  it('gives what the inline transform gives', async () => {
    expect(await pool.transform(page(1), opts, wants)).toEqual(transformPage(page(1), opts, wants));
  });

  it('answers each of many concurrent pages with its own result', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => pool.transform(page(i), opts, wants)));
    results.forEach((r, i) => {
      expect(r.metadata.title).toBe(`Page ${i}`);
      expect(r.links).toEqual([`https://example.com/p${i}`]);
    });
  });

  it('hands a failing page its error and goes on with the next', async () => {
    await expect(pool.transform(null as unknown as string, opts, wants)).rejects.toThrow();
    expect((await pool.transform(page(2), opts, wants)).metadata.title).toBe('Page 2');
  });

  it('refuses a page it cannot hand to a thread, and goes on with the next', async () => {
    const uncopyable = { ...opts, baseUrl: (() => 'x') as unknown as string };
    await expect(pool.transform(page(3), uncopyable, wants)).rejects.toThrow();
    expect((await pool.transform(page(4), opts, wants)).metadata.title).toBe('Page 4');
  });

  it('refuses work once closed', async () => {
    const closing = createTransformer(1);
    await closing.close();
    await expect(closing.transform(page(1), opts, wants)).rejects.toThrow(/closed/);
  });
});
