import { describe, expect, it } from 'vitest';
import { rehypeHeadingIds } from '../../../src/transform/rehype-heading-ids.js';
import { runPlugins } from '../../helpers/transform/run-plugin.js';

function run(html: string, prefix?: string) {
  return runPlugins(html, [rehypeHeadingIds(prefix === undefined ? {} : { prefix })]).html;
}

describe('rehypeHeadingIds', () => {
  it.each([
    ['<h2>Hello World</h2>', '<h2 id="hello-world">Hello World</h2>'],
    ['<h1>A</h1><h6>B</h6><h7>C</h7>', '<h1 id="a">A</h1><h6 id="b">B</h6><h7>C</h7>'],
    ['<h2>Zażółć gęślą jaźń</h2>', '<h2 id="zażółć-gęślą-jaźń">Zażółć gęślą jaźń</h2>'],
    ['<h2>¿Qué tal? Señor</h2>', '<h2 id="qué-tal-señor">¿Qué tal? Señor</h2>'],
    ['<h2>日本語の見出し</h2>', '<h2 id="日本語の見出し">日本語の見出し</h2>'],
    [
      '<h2>Intro <em>and</em> <a href="#x">more</a></h2>',
      '<h2 id="intro-and-more">Intro <em>and</em> <a href="#x">more</a></h2>',
    ],
    [
      '<h2>Same</h2><h3>Same</h3><h4>Same</h4>',
      '<h2 id="same">Same</h2><h3 id="same-1">Same</h3><h4 id="same-2">Same</h4>',
    ],
    ['<h2 id="keep">Keep me</h2>', '<h2 id="keep">Keep me</h2>'],
    ['<h2></h2><h2>!!!</h2>', '<h2 id="section"></h2><h2 id="section-1">!!!</h2>'],
    ['<div id="intro"></div><h2>Intro</h2>', '<div id="intro"></div><h2 id="intro-1">Intro</h2>'],
    [
      '<h2>Intro</h2><h2 id="intro">Other</h2>',
      '<h2 id="intro-1">Intro</h2><h2 id="intro">Other</h2>',
    ],
    ['<h2 id="">Empty id</h2>', '<h2 id="empty-id">Empty id</h2>'],
  ])('%s', (input, expected) => {
    expect(run(input)).toBe(expected);
  });

  it('prefixes generated ids only', () => {
    expect(run('<h2>A</h2><h2 id="b">B</h2>', 'h-')).toBe('<h2 id="h-a">A</h2><h2 id="b">B</h2>');
  });

  it('starts counting again for every document', () => {
    const plugin = rehypeHeadingIds();
    expect(runPlugins('<h2>A</h2>', [plugin]).html).toBe('<h2 id="a">A</h2>');
    expect(runPlugins('<h2>A</h2>', [plugin]).html).toBe('<h2 id="a">A</h2>');
  });
});
