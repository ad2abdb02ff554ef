import { describe, expect, it } from 'vitest';
import { RAIL_HEADING_FAMILIES, isRailHeading, wholeHeading } from './rail-heading.js';

/**
 * Headings each family must recognise, between them matching every phrase of the family (see the
 * last test: a phrase added without an example here fails it), and headings of content that look
 * alike and must not be taken for a rail.
 */
const FAMILIES: Record<string, { rails: string[]; content: string[] }> = {
  related: {
    rails: ['Related', 'Related Articles', 'Related blog posts', 'Explore related items', 'Similar threads', 'Similar products to consider', 'Similar recommendation', 'Compare with similar items', 'Compare similar items', 'Compare with similar products', 'More like this', 'More to consider Sponsored'],
    content: ['Related work in three fields of study', 'Similar', 'Compare plans'],
  },
  suggested: {
    rails: ['You may also like', 'We think you will enjoy these', "You'll also love these too", 'We know you\u2019ll love this', 'You may also be interested in', 'You may also check', 'Recommended for you', 'Recommended', 'Sponsored stories', 'Sponsored'],
    content: ['You may like the results', 'Recommended settings for a small server'],
  },
  shop: {
    rails: ['Recently viewed items', 'Frequently bought together', 'Often viewed with each other', 'Frequently bought with this item', 'Customers also viewed', 'Shoppers also purchased', 'Others like you also bought', 'People who viewed this item also liked', 'This is what customers who viewed this product bought', 'What other customers who bought this item also bought', 'More from this seller', 'More by the brand', 'Complete the look', 'Shop the look', 'Pairs well with', 'Pair perfectly with it', 'Where to buy'],
    content: ['Customers', 'Shop our new range of bags', 'Where to buy a house in 2024'],
  },
  moreReading: {
    rails: ['More from Bershka', 'Read next', 'Up Next', "Don't Miss", 'Dont miss', "Editors' Picks", 'Editor\u2019s picks', 'Popular posts', 'Most popular stories', 'Popular on IndieWire', 'Most read in world news', 'More stories', 'More Great WIRED Stories', 'More great reads', 'Our latest insights', 'Latest blog posts', 'Featured insights', 'From the blog', 'From our blog', 'Recent posts'],
    content: ["Don't miss the deadline for entries", 'Latest', 'Most read', 'Popular', 'Trending', 'Recent changes in version 15'],
  },
  author: {
    rails: ['About the Author', 'About the authors', 'About the reviewer', 'About the writer'],
    content: ['About the company', 'About us'],
  },
  sharing: {
    rails: ['Like this:', 'Share this', 'Share this article', 'Share on other sites', 'Link to post', 'Link to comment', 'Top posters in this topic'],
    content: ['Share your feedback with the team', 'Like a rolling stone'],
  },
  portuguese: {
    rails: ['Você também pode gostar', 'Poderá gostar de', 'Veja também', 'Leia tambem', 'Notícias relacionadas', 'Artigos relacionados'],
    content: ['Veja o vídeo completo'],
  },
  spanish: {
    rails: ['También te puede interesar', 'Te podría interesar', 'Quizás te interese', 'Tal vez te interese', 'Noticias relacionadas', 'Artículos relacionados', 'Lee también'],
    content: ['Te contamos todo'],
  },
  french: {
    rails: ['À lire aussi', 'Lire aussi', 'Voir aussi', 'Vous aimerez aussi', 'Vous pourriez également aimer', 'Sur le même sujet', 'Sur le même thème', 'Articles similaires', 'Articles liés', 'Ils vont bien ensemble'],
    content: ['Lire la suite du rapport annuel'],
  },
  german: {
    rails: ['Das könnte Sie auch interessieren', 'Das konnte dich auch interessieren', 'Auch interessant', 'Ebenfalls interessant', 'Mehr zum Thema', 'Ähnliche Artikel', 'Verwandte Beiträge'],
    content: ['Mehr Informationen zur Anmeldung'],
  },
  italian: {
    rails: ['Ti potrebbe anche interessarti', 'Potrebbero interessarti', 'Leggi anche', 'Articoli correlati'],
    content: ['Leggi il regolamento'],
  },
  dutch: {
    rails: ['Lees ook', 'Gerelateerde artikelen', 'Gerelateerde producten'],
    content: ['Lees meer over onze diensten'],
  },
  discussion: {
    rails: ['Leave a Reply', 'Leave a comment', 'Join the conversation', 'Join the discussion', 'Tell us what you think', 'Be the first to review this item', 'Write a review', 'Submit a review for this product', 'Write your own review'],
    content: ['Comments', 'Replies', 'Reviews', 'Customer reviews'],
  },
  policy: {
    rails: ['Shipping & Returns', 'Delivery and return', 'Shipping + returns', 'Returns & exchanges', 'Return and refunds', 'Shipping and delivery'],
    content: ['Return policy', 'Shipping'],
  },
};

describe('rail headings', () => {
  for (const [family, { rails, content }] of Object.entries(FAMILIES)) {
    it(`${family}: heads a rail`, () => {
      expect(rails.filter((h) => !isRailHeading(h))).toEqual([]);
    });
    it(`${family}: leaves content headings alone`, () => {
      expect(content.filter((h) => isRailHeading(h))).toEqual([]);
    });
  }

  it('has an example for every phrase of every family', () => {
    expect(Object.keys(FAMILIES).sort()).toEqual(Object.keys(RAIL_HEADING_FAMILIES).sort());
    const missing: string[] = [];
    for (const [family, phrases] of Object.entries(RAIL_HEADING_FAMILIES)) {
      const examples = FAMILIES[family]?.rails ?? [];
      for (const p of phrases) {
        const whole = wholeHeading([p]);
        if (!examples.some((e) => whole.test(e.replace(/\u2019/g, "'").replace(/[:.!…\s]+$/, '')))) missing.push(`${family}: ${p.source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('reads the heading as a whole, past its closing marks and spacing', () => {
    expect(isRailHeading('  Related\u00a0posts:  ')).toBe(true);
    expect(isRailHeading('You may also like…')).toBe(true);
    expect(isRailHeading('Related posts about gardening in small spaces this year')).toBe(false);
    expect(isRailHeading('')).toBe(false);
    expect(isRailHeading(`Related ${'x'.repeat(60)}`)).toBe(false);
  });
});
