/**
 * A small, strict XML parser for tests of the feed and sitemap: it throws on anything that is
 * not well-formed (unbalanced or crossed tags, unquoted or duplicate attributes, a raw `<` or
 * `&` in text, unknown entities, characters XML cannot hold, more than one root) and returns a
 * tree to assert on. Namespaces are kept as written (`xhtml:link`). No DTDs.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BAD_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function decode(text: string, where: string): string {
  if (text.includes('<')) throw new Error(`raw "<" in ${where}`);
  return text.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`raw "&" in ${where}`);
    if (/^#x[0-9a-fA-F]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (/^#[0-9]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const named = ENTITIES[ref];
    if (named === undefined) throw new Error(`unknown entity ${whole} in ${where}`);
    return named;
  });
}

export function parseXml(xml: string): XmlElement {
  if (BAD_CHAR.test(xml)) throw new Error('character not allowed in XML');
  let position = 0;
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    position = end + 2;
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  while (position < xml.length) {
    const next = xml.indexOf('<', position);
    const text = xml.slice(position, next < 0 ? xml.length : next);
    if (text !== '') {
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(decode(text, `<${parent.name}>`));
      else if (text.trim() !== '') throw new Error('text outside the root element');
    }
    if (next < 0) break;
    position = next;
    if (xml.startsWith('<!--', position)) {
      const end = xml.indexOf('-->', position);
      if (end < 0) throw new Error('unterminated comment');
      position = end + 3;
    } else if (xml.startsWith('<![CDATA[', position)) {
      const end = xml.indexOf(']]>', position);
      const parent = stack[stack.length - 1];
      if (end < 0 || !parent) throw new Error('bad CDATA section');
      parent.children.push(xml.slice(position + 9, end));
      position = end + 3;
    } else if (xml.startsWith('</', position)) {
      const end = xml.indexOf('>', position);
      const name = xml.slice(position + 2, end).trim();
      const open = stack.pop();
      if (!open || open.name !== name)
        throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      position = end + 1;
    } else {
      position++;
      const nameMatch = NAME.exec(xml.slice(position));
      if (!nameMatch) throw new Error(`bad tag at ${position}`);
      const element: XmlElement = { name: nameMatch[0], attributes: {}, children: [] };
      position += nameMatch[0].length;
      for (;;) {
        const space = /^\s*/.exec(xml.slice(position))?.[0] ?? '';
        position += space.length;
        if (xml.startsWith('/>', position)) {
          position += 2;
          attach(element, false);
          break;
        }
        if (xml[position] === '>') {
          position += 1;
          attach(element, true);
          break;
        }
        if (space === '') throw new Error(`attributes of <${element.name}> not separated`);
        const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(
          xml.slice(position),
        );
        if (!attribute) throw new Error(`bad attribute in <${element.name}>`);
        const name = attribute[1] as string;
        if (name in element.attributes) throw new Error(`duplicate attribute ${name}`);
        element.attributes[name] = decode(attribute[3] ?? attribute[4] ?? '', `attribute ${name}`);
        position += attribute[0].length;
      }
    }
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  if (!root) throw new Error('no root element');
  return root;

  function attach(element: XmlElement, open: boolean): void {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else if (root) throw new Error('more than one root element');
    else root = element;
    if (open) stack.push(element);
  }
}

/** Descendant elements named `name`, in document order. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) found.push(child);
    found.push(...findAll(child, name));
  }
  return found;
}

export function textOf(element: XmlElement): string {
  return element.children
    .map((child) => (typeof child === 'string' ? child : textOf(child)))
    .join('');
}
