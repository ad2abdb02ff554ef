/** The last tidying of repeats leaves code alone, also a code block set inside a quote. */
import { describe, expect, it } from 'vitest';
import { withoutRepeatedText } from './markdown-repeats.js';

describe('repeated lines', () => {
  it('keeps a code block\'s repeated lines, in a block quote too', () => {
    const check = 'if total == the_limit_of_the_account and the_month is not over and the_user is active:';
    const session = [`>>> ${check}`, '  File "<stdin>", line 1', `    ${check}`, '       ^', 'SyntaxError: invalid syntax'];
    const md = ['- Using `=` instead of `==` in a comparison:', '', '  > ```python', ...session.map((l) => `  > ${l}`), '  > ```', '', '  > The message now points at the mistake.'].join('\n');
    expect(withoutRepeatedText(md)).toBe(md);
  });

  it('still says a sentence rendered twice in a row once', () => {
    const line = 'The settings page lets every member of the team choose how often reports arrive by mail.';
    expect(withoutRepeatedText(`${line}\n\n${line}`).trim()).toBe(line);
  });

  it('leaves a repeated sentence alone inside the spans it is told to keep', () => {
    const line = 'The settings page lets every member of the team choose how often reports arrive by mail.';
    const md = `${line}\n\n${line}`;
    expect(withoutRepeatedText(md, [[line.length + 2, md.length]])).toBe(md);
  });
});
