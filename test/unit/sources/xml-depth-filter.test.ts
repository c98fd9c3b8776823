import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { XmlDepthFilter } from '../../../src/sources/xml-depth-filter.js';

/** Well-formed XML of random markup (comments, CDATA, PIs, quoted `>` in attributes), nested up to `depth`. */
const markup = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'text',
      ' & ',
      '<!-- a <b> -- c -->',
      '<![CDATA[ <x> ]] ]]>',
      '<?pi a="<"?>',
      '<e a="1>2" b=\'/\'/>',
    ),
    fc
      .tuple(fc.constantFrom('a', 'g:b', 'item', 'entry'), fc.array(tie('node'), { maxLength: 4 }))
      .map(([name, children]) => `<${name} x="y>">${children.join('')}</${name}>`),
  ),
})).node as fc.Arbitrary<string>;

describe('XmlDepthFilter', () => {
  it('passes XML that is not too deep through unchanged, however it is cut into chunks', () => {
    fc.assert(
      fc.property(
        markup,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }),
        (xml, cuts) => {
          const text = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY e "v">]><rss>${xml}</rss>`;
          const filter = new XmlDepthFilter(64, (name) => name === 'item' || name === 'entry');
          let out = '';
          for (let at = 0, i = 0; at < text.length; i++) {
            const size = cuts[i % cuts.length]!;
            out += filter.write(text.slice(at, at + size));
            at += size;
          }
          expect(out).toBe(text);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('XmlDepthFilter, element by element', () => {
  const filter = () => new XmlDepthFilter(3, (name) => name === 'item');
  it('replaces an element that opens too deep, with all it holds, by the mark', () => {
    const text = '<rss><channel><item><a><b><c><d>x</d></c></b></a><e/></item></channel></rss>';
    expect(filter().write(text)).toBe(
      '<rss><channel><item><a><b><?catalog-sync-too-deep?></b></a><e/></item></channel></rss>',
    );
  });

  it('counts from the document outside items, and ignores markup in comments, CDATA and quotes', () => {
    const text = '<r><s><t><u/><!-- <v> --><![CDATA[<w>]]><x a="<y>"/></t></s></r>';
    expect(filter().write(text)).toBe(
      '<r><s><t><?catalog-sync-too-deep?><!-- <v> --><![CDATA[<w>]]><?catalog-sync-too-deep?></t></s></r>',
    );
  });

  it('holds a `<` cut at the end of a chunk until it knows what it opens', () => {
    const f = filter();
    const text = '<rss><channel><item><a><b><c>x</c></b></a></item></channel></rss>';
    const out = [...text].map((char) => f.write(char)).join('');
    expect(out).toBe('<rss><channel><item><a><b><?catalog-sync-too-deep?></b></a></item></channel></rss>');
  });
});
