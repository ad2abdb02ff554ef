/**
 * The formats the transform itself produces: markdown, html, rawHtml, rawBase64, links, images.
 * Their values are written while the Document is built; their modules declare them for the table.
 */
import { z } from 'zod';
import { defineFormat, needs } from './types.js';

const plain = <T extends string>(type: T, description: string, output: 'markdown' | 'html' | 'rawHtml' | 'rawBase64' | 'links' | 'images', html = false) =>
  defineFormat({
    type,
    schema: z.object({ type: z.literal(type) }),
    needs: needs({ html, markdown: output === 'markdown' }),
    cost: () => 0,
    output,
    description,
    stage: 'transform',
  });

export const markdownFormat = plain('markdown', 'The page as markdown (main content unless onlyMainContent is false).', 'markdown');
export const htmlFormat = plain('html', 'The cleaned HTML of the page.', 'html');
export const rawHtmlFormat = plain('rawHtml', 'The HTML as served.', 'rawHtml', true);
export const rawBase64Format = plain('rawBase64', 'The response body, base64-encoded.', 'rawBase64');
export const linksFormat = plain('links', 'Absolute URLs of the links on the page.', 'links');
export const imagesFormat = plain('images', 'Absolute URLs of the images on the page.', 'images');
