import { beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, backupStatuses } from '../../src/collections.js';
import { useSite } from '../helpers/mirror-fixture.js';
import { callApi, getJson } from '../helpers/reference.js';
import type { Json, ReferenceSite } from '../helpers/reference.js';

/**
 * The registry's facts about each collection hold on the site: the oracle is what the
 * reference site (a faithful server of the interface) answers, never the registry itself.
 */
const fixture = useSite({ languages: ['pl'] }, 'all');
let site: ReferenceSite;
beforeAll(() => {
  ({ site } = fixture);
});

async function editItems(route: string, statuses: readonly string[]): Promise<Json[]> {
  const { status, body } = await getJson(site, 'pl', `/${route}`, {
    query: { per_page: 100, context: 'edit', status: statuses },
    auth: true,
  });
  expect(status, route).toBe(200);
  expect(Array.isArray(body), route).toBe(true);
  expect(body.length, route).toBeGreaterThan(0);
  return body;
}

describe('the registry of collections, against the site', () => {
  it('routes: each is in the index and answers GET and POST', async () => {
    const { body } = await getJson(site, 'pl', '/');
    const routes = Object.keys(body.routes);
    for (const collection of COLLECTIONS) {
      expect(routes, collection.name).toContain(`/${collection.route}`);
      const methods = body.routes[`/${collection.route}`].methods as string[];
      expect(methods, collection.name).toEqual(expect.arrayContaining(['GET', 'POST']));
    }
  });

  it('statuses: anonymous lists hold only the view statuses; edit lists only the asked ones', async () => {
    for (const collection of COLLECTIONS) {
      const anonymous = await getJson(site, 'pl', `/${collection.route}`, {
        query: { per_page: 100 },
      });
      expect(anonymous.body.length, collection.name).toBeGreaterThan(0);
      for (const item of anonymous.body as Json[])
        expect(collection.statuses.view, `${collection.name} ${item.id}`).toContain(item.status);
      const statuses = backupStatuses(collection.name);
      for (const item of await editItems(collection.route, statuses))
        expect(statuses, `${collection.name} ${item.id}`).toContain(item.status);
    }
  });

  it('revisions: the site keeps them exactly for the collections that say so', async () => {
    for (const collection of COLLECTIONS) {
      const [item] = await editItems(collection.route, collection.statuses.edit);
      const answer = await callApi(site, 'pl', `/${collection.route}/${item.id}/revisions`, {
        auth: true,
      });
      expect(answer.status === 200, collection.name).toBe(collection.revisions);
    }
  });

  it('fields: page trees, files, terms, checkout and copied fields are fields the items have', async () => {
    for (const collection of COLLECTIONS) {
      const items = await editItems(collection.route, collection.statuses.edit);
      const has = (field: string) => items.every((item) => field in item);
      expect(has('parent'), `${collection.name} parent`).toBe(collection.hierarchical);
      expect(has('source_url'), `${collection.name} source_url`).toBe(collection.file);
      expect(has('categories') && has('tags'), `${collection.name} terms`).toBe(collection.terms);
      for (const field of collection.checkout?.fields ?? [])
        expect(has(field), `${collection.name} checkout ${field}`).toBe(true);
      for (const field of collection.migrate.copied)
        expect(has(field), `${collection.name} copied ${field}`).toBe(true);
    }
  });
});
