/**
 * `srcset` parsing and serialization. Candidates are split the way the HTML standard does it
 * (a URL runs to the next whitespace, so it may contain commas; descriptors run to the next
 * comma outside parentheses), not by naive comma splitting.
 */

/** One image candidate: its URL and its descriptor text (`800w`, `2x`, or empty). */
export interface SrcsetCandidate {
  url: string;
  descriptor: string;
}

const WHITESPACE = /[\t\n\f\r ]/;

/** Parses a `srcset` value. Never throws; empty candidates are skipped. */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  const length = value.length;
  let position = 0;
  while (position < length) {
    while (
      position < length &&
      (WHITESPACE.test(value[position] ?? '') || value[position] === ',')
    ) {
      position += 1;
    }
    if (position >= length) break;

    const urlStart = position;
    while (position < length && !WHITESPACE.test(value[position] ?? '')) position += 1;
    let url = value.slice(urlStart, position);

    let descriptor = '';
    if (url.endsWith(',')) {
      // `a.png, b.png`: a URL ending in commas ends its candidate, without descriptors.
      url = url.replace(/,+$/, '');
    } else {
      const descriptorStart = position;
      let depth = 0;
      while (position < length) {
        const character = value[position];
        if (character === '(') depth += 1;
        else if (character === ')' && depth > 0) depth -= 1;
        else if (character === ',' && depth === 0) break;
        position += 1;
      }
      descriptor = value.slice(descriptorStart, position).trim().replace(/\s+/g, ' ');
    }
    if (url !== '') candidates.push({ url, descriptor });
  }
  return candidates;
}

/** Serializes candidates as `url descriptor, url descriptor`. */
export function stringifySrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates
    .map((candidate) =>
      candidate.descriptor === '' ? candidate.url : `${candidate.url} ${candidate.descriptor}`,
    )
    .join(', ');
}
