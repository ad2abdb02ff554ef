/** CSS selector validation at the edge, so a bad `includeTags` entry is a 400, not a failed scrape. */
import { load } from 'cheerio';

const probe = load('<p></p>');

export function selectorIsValid(selector: string): boolean {
  try {
    probe(selector);
    return true;
  } catch {
    return false;
  }
}
