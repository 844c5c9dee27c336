/**
 * Exports the public posts and pages of one language of a cache as a plain Eleventy 3 project,
 * for `vs-eleventy.bench.ts`: one `.html` file per item with JSON front matter, its body the
 * site's own rendered HTML (`content.rendered` as pulled, not cms-mirror's transformed HTML),
 * Nunjucks layouts of about the weight of the built-in theme (`templates/`: head with
 * canonical/Open Graph meta, header with search form, footer, cards with excerpt on the home
 * page, newer/older links on posts) and the home page paginated from `collections.posts`.
 * The newer/older neighbours are written into each post's front matter, as an exporter would:
 * Eleventy's collection-neighbour filters are a linear search per page.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

interface Row {
  type: 'posts' | 'pages';
  id: number;
  slug: string | null;
  link: string | null;
  title: string | null;
  date_gmt: string | null;
  content: string | null;
  excerpt: string | null;
}

interface Neighbour {
  title: string;
  href: string;
}

const BASE = `<!doctype html>
<html lang="{{ site.lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% if title %}{{ title }} – {% endif %}{{ site.name }}</title>
{%- if description %}
<meta name="description" content="{{ description }}">
{%- endif %}
<link rel="canonical" href="{{ site.url }}{{ page.url }}">
<link rel="alternate" type="application/atom+xml" title="{{ site.name }}" href="/feed.xml">
<link rel="stylesheet" href="/assets/style.css">
<meta property="og:site_name" content="{{ site.name }}">
<meta property="og:title" content="{{ title or site.name }}">
<meta property="og:type" content="{{ 'article' if kind == 'post' else 'website' }}">
<meta property="og:locale" content="{{ site.lang }}">
<meta property="og:url" content="{{ site.url }}{{ page.url }}">
</head>
<body class="kind-{{ kind }}">
<a class="skip-link" href="#main">Przejdź do treści</a>
<header class="site-header">
  <div class="wrap header-inner">
    <div class="branding">
      <a class="site-title" href="/">{{ site.name }}</a>
      <p class="site-description">{{ site.description }}</p>
    </div>
    <form class="search-form" role="search" action="/search/" method="get">
      <label class="visually-hidden" for="site-search">Szukaj</label>
      <input id="site-search" type="search" name="q" placeholder="Szukaj…" autocomplete="off">
      <button type="submit">Szukaj</button>
    </form>
  </div>
</header>
<main id="main" class="wrap" tabindex="-1">
{{ content | safe }}
</main>
<footer class="site-footer">
  <div class="wrap">
    <p>© {{ site.name }}</p>
    <p><a href="/feed.xml">Kanał</a> · <a href="/search/">Szukaj</a></p>
  </div>
</footer>
</body>
</html>
`;

const POST = `---
layout: layouts/base.njk
kind: post
---
<article class="entry">
  <header class="entry-header">
    <h1>{{ title }}</h1>
    <p class="entry-meta">Opublikowano <time datetime="{{ page.date.toISOString() }}">{{ page.date.toLocaleDateString('pl-PL') }}</time></p>
  </header>
  <div class="entry-content">
{{ content | safe }}
  </div>
</article>
{%- if newer or older %}
<nav class="post-navigation" aria-label="Wpisy">
  {%- if newer %}
  <a class="newer" rel="next" href="{{ newer.href }}"><span class="label">Nowszy</span> {{ newer.title }}</a>
  {%- endif %}
  {%- if older %}
  <a class="older" rel="prev" href="{{ older.href }}"><span class="label">Starszy</span> {{ older.title }}</a>
  {%- endif %}
</nav>
{%- endif %}
`;

const PAGE = `---
layout: layouts/base.njk
kind: page
---
<article class="entry">
  <header class="entry-header"><h1>{{ title }}</h1></header>
  <div class="entry-content">
{{ content | safe }}
  </div>
</article>
`;

/** The home page: 10 cards per page, newest first, like the theme's listing. */
const INDEX = `---
layout: layouts/base.njk
kind: listing
pagination:
  data: collections.posts
  size: 10
  reverse: true
  alias: cards
permalink: "{% if pagination.pageNumber > 0 %}/page/{{ pagination.pageNumber + 1 }}/{% else %}/{% endif %}"
---
<h1 class="listing-title{% if pagination.pageNumber == 0 %} visually-hidden{% endif %}">Wpisy</h1>
<ol class="post-list">
  {%- for card in cards %}
  <li>
    <article class="card">
      <h2 class="card-title"><a href="{{ card.url }}">{{ card.data.title }}</a></h2>
      <p class="entry-meta"><time datetime="{{ card.date.toISOString() }}">{{ card.date.toLocaleDateString('pl-PL') }}</time></p>
      <p class="card-excerpt">{{ card.data.excerpt }}</p>
    </article>
  </li>
  {%- endfor %}
</ol>
<nav class="pagination" aria-label="Strony">
  {%- if pagination.href.previous %}
  <a class="newer" rel="prev" href="{{ pagination.href.previous }}">Nowsze wpisy</a>
  {%- endif %}
  <span class="page-count">Strona {{ pagination.pageNumber + 1 }} z {{ pagination.pages.length }}</span>
  {%- if pagination.href.next %}
  <a class="older" rel="next" href="{{ pagination.href.next }}">Starsze wpisy</a>
  {%- endif %}
</nav>
`;

/** `htmlTemplateEngine: false`: the bodies are HTML as they are, not Liquid templates. */
const CONFIG = `export default function (eleventyConfig) {
  eleventyConfig.addPassthroughCopy({ 'src/assets': 'assets' });
  return { dir: { input: 'src', output: process.env.ELEVENTY_OUT }, htmlTemplateEngine: false };
}
`;

const text = (html: string | null): string =>
  (html ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function sitePath(row: Row): string {
  const fromLink = row.link ? new URL(row.link).pathname : '';
  return fromLink.endsWith('/') ? fromLink : `/${row.type}/${row.slug ?? row.id}/`;
}

function writeItem(src: string, row: Row, data: Record<string, unknown>): void {
  const file = path.join(src, row.type, `${row.id}.html`);
  const front = {
    title: text(row.title),
    date: row.date_gmt ? `${row.date_gmt}Z` : undefined,
    permalink: sitePath(row),
    ...data,
  };
  fs.writeFileSync(file, `---json\n${JSON.stringify(front)}\n---\n${row.content ?? ''}\n`);
}

/** Writes the project into `project` (created); returns the number of items exported. */
export function exportEleventyProject(
  cache: string,
  lang: string,
  project: string,
  themeAssets: string,
): number {
  const src = path.join(project, 'src');
  for (const dir of ['posts', 'pages', '_includes/layouts', 'assets', '_data'])
    fs.mkdirSync(path.join(src, dir), { recursive: true });
  fs.writeFileSync(path.join(project, 'eleventy.config.mjs'), CONFIG);
  fs.writeFileSync(path.join(src, '_includes/layouts/base.njk'), BASE);
  fs.writeFileSync(path.join(src, 'index.njk'), INDEX);
  fs.writeFileSync(path.join(src, 'posts/posts.json'), JSON.stringify({ tags: 'posts' }));
  fs.cpSync(themeAssets, path.join(src, 'assets'), { recursive: true });
  const db = new Database(cache, { readonly: true });
  try {
    const info = db.prepare('SELECT json FROM site_info WHERE lang = ?').get(lang) as
      { json: string } | undefined;
    const index = JSON.parse(info?.json ?? '{}') as {
      name?: string;
      description?: string;
      url?: string;
    };
    const site = { lang, name: index.name ?? '', description: index.description ?? '', url: '' };
    fs.writeFileSync(path.join(src, '_data/site.json'), JSON.stringify(site));
    const rows = db
      .prepare(
        `SELECT type, id, slug, link, title, date_gmt,
           json_extract(json, '$.content.rendered') AS content,
           json_extract(json, '$.excerpt.rendered') AS excerpt
         FROM items WHERE lang = ? AND type IN ('posts', 'pages') AND is_public = 1
         ORDER BY type, date_gmt DESC, id DESC`,
      )
      .all(lang) as Row[];
    const posts = rows.filter((row) => row.type === 'posts');
    const near = (row: Row | undefined): Neighbour | undefined =>
      row && { title: text(row.title), href: sitePath(row) };
    posts.forEach((row, i) =>
      writeItem(src, row, {
        layout: 'layouts/post.njk',
        excerpt: text(row.excerpt),
        newer: near(posts[i - 1]),
        older: near(posts[i + 1]),
      }),
    );
    for (const row of rows.filter((r) => r.type === 'pages'))
      writeItem(src, row, { layout: 'layouts/page.njk' });
    fs.writeFileSync(path.join(src, '_includes/layouts/post.njk'), POST);
    fs.writeFileSync(path.join(src, '_includes/layouts/page.njk'), PAGE);
    return rows.length;
  } finally {
    db.close();
  }
}
