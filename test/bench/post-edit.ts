/**
 * What the run benchmarks do to the reference site between runs: change one post's title
 * through the API, as an editor would, so the next `run` pulls one changed item.
 */
interface Site {
  readonly url: string;
  readonly credentials: { readonly user: string; readonly password: string };
}

/** Sets post `id`'s title (in `pl`) to a new, unique one; throws when the site refuses. */
export async function editPostTitle(site: Site, id: number): Promise<void> {
  const { user, password } = site.credentials;
  const edited = await fetch(`${site.url}/pl/cms-json/cms/v2/posts/${id}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ title: `Edited title ${Date.now()}` }),
  });
  if (!edited.ok) throw new Error(`edit of post ${id} failed: ${edited.status}`);
}
