/**
 * The Atom feed (`feed.xml`, RFC 4287) of the newest posts. Written by the build itself, not
 * by a template: its shape is fixed by the standard, and a pure function is easy to check for
 * well-formedness. Deterministic (no "now"), so an unchanged site gives identical bytes.
 */
import { escapeXml, gmtToIso } from './xml-text.js';

export interface FeedEntry {
  title: string;
  /** Absolute URL of the post. */
  url: string;
  dateGmt: string;
  modifiedGmt: string;
  /** Plain text. */
  summary: string;
  /** The post's HTML; its relative links resolve against `url` through `xml:base`. */
  contentHtml: string;
}

export interface FeedHeader {
  title: string;
  subtitle: string;
  /** Absolute URL of the language home. */
  homeUrl: string;
  /** Absolute URL of this feed. */
  feedUrl: string;
  /** `pl-PL` */
  locale: string;
  authorName: string;
}

/** Used as `<updated>` of a feed without entries, so that it stays deterministic. */
const EPOCH = '1970-01-01T00:00:00Z';

export function atomFeed(header: FeedHeader, entries: readonly FeedEntry[]): string {
  const updated = entries.reduce(
    (latest, entry) =>
      gmtToIso(entry.modifiedGmt) > latest ? gmtToIso(entry.modifiedGmt) : latest,
    EPOCH,
  );
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(header.locale)}">`,
    `  <title>${escapeXml(header.title)}</title>`,
  ];
  if (header.subtitle) lines.push(`  <subtitle>${escapeXml(header.subtitle)}</subtitle>`);
  lines.push(
    `  <id>${escapeXml(header.feedUrl)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(header.feedUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(header.homeUrl)}"/>`,
    `  <updated>${escapeXml(updated)}</updated>`,
    `  <author><name>${escapeXml(header.authorName)}</name></author>`,
    '  <generator>cms-mirror</generator>',
  );
  for (const entry of entries) {
    lines.push(
      '  <entry>',
      `    <title type="text">${escapeXml(entry.title)}</title>`,
      `    <id>${escapeXml(entry.url)}</id>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(entry.url)}"/>`,
      `    <published>${escapeXml(gmtToIso(entry.dateGmt))}</published>`,
      `    <updated>${escapeXml(gmtToIso(entry.modifiedGmt))}</updated>`,
    );
    if (entry.summary) lines.push(`    <summary type="text">${escapeXml(entry.summary)}</summary>`);
    lines.push(
      `    <content type="html" xml:base="${escapeXml(entry.url)}">${escapeXml(entry.contentHtml)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
