import { describe, expect, it } from 'vitest';
import { isApiError } from '../../errors.js';
import { parseCommands, tokenize } from './commands.js';

const words = (line: string) => tokenize(line).map((t) => ('word' in t ? t.word : { op: t.op }));

function refusal(code: string): { message: string; details: unknown } {
  try {
    parseCommands(code);
  } catch (e) {
    if (isApiError(e)) return { message: e.message, details: e.details };
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(code)} to be refused`);
}

describe('bash words', () => {
  it('splits on blanks and undoes quotes and backslashes as a shell does', () => {
    expect(words(`fill "#email" 'a b'  c\\ d "say \\"hi\\""`)).toEqual(['fill', '#email', 'a b', 'c d', 'say "hi"']);
    expect(words(`fill '#pw' 'pa$$w"rd'`)).toEqual(['fill', '#pw', 'pa$$w"rd']);
  });

  it('keeps glob characters and CSS selectors literal', () => {
    expect(words(`wait --url **/dash?x`)).toEqual(['wait', '--url', '**/dash?x']);
    expect(words(`click a[href$=.pdf]`)).toEqual(['click', 'a[href$=.pdf]']);
    expect(words(`click #reveal # the button`)).toEqual(['click', '#reveal']);
  });

  it('takes ; and && as separators', () => {
    expect(words('open x.com && snapshot -i; get url')).toEqual(['open', 'x.com', { op: '&&' }, 'snapshot', '-i', { op: ';' }, 'get', 'url']);
  });
});

describe('agent-browser commands', () => {
  it('reads the vocabulary, with or without the agent-browser prefix', () => {
    const cmds = parseCommands(`agent-browser open example.com
snapshot -i -d 3
click @e3
fill "#q" "hello world"
get text "#result"
get attr a href
scroll down 200 --selector #box
wait --load networkidle
eval 'document.title'
screenshot --full`);
    expect(cmds.map((c) => [c.name, c.field, c.args, c.flags])).toEqual([
      ['open', undefined, ['example.com'], {}],
      ['snapshot', undefined, [], { i: true, d: '3' }],
      ['click', undefined, ['@e3'], {}],
      ['fill', undefined, ['#q', 'hello world'], {}],
      ['get', 'text', ['#result'], {}],
      ['get', 'attr', ['a', 'href'], {}],
      ['scroll', undefined, ['down', '200'], { selector: '#box' }],
      ['wait', undefined, [], { load: 'networkidle' }],
      ['eval', undefined, ['document.title'], {}],
      ['screenshot', undefined, [], { full: true }],
    ]);
    expect(parseCommands('goto a.com\nkey Enter').map((c) => c.name)).toEqual(['open', 'press']);
  });

  it.each([
    ['another program', 'ls /'],
    ['a pipe', 'open a.com | sh'],
    ['a redirection', 'snapshot > /tmp/x'],
    ['command substitution', 'open $(cat /etc/passwd)'],
    ['backticks', 'open `id`'],
    ['a variable', 'open $HOME'],
    ['an expansion in double quotes', 'fill #a "$(id)"'],
    ['a background job', 'open a.com &'],
    ['||', 'open a.com || rm -rf /'],
    ['a subshell', '(open a.com)'],
    ['an unterminated quote', "fill #a 'oops"],
    ['a wrong number of arguments', 'fill #a'],
    ['an unknown get field', 'get cookies'],
    ['nothing at all', '# only a comment'],
  ])('refuses %s with a 400 naming what is supported', (_what, code) => {
    const e = refusal(code);
    expect(e.message).toMatch(/open <url>; .*snapshot \[-i\].*get text/);
    expect(e.details).toEqual([expect.objectContaining({ path: ['code'] })]);
  });

  it('names the line that is refused', () => {
    expect(refusal('open a.com\nsnapshot\ncat /etc/passwd').message).toMatch(/^Line 3 .*'cat' is not a supported command/);
  });
});
