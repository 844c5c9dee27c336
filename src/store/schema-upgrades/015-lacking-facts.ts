import type { SchemaUpgrade } from '../schema-step.js';

/**
 * Transform outputs stored without the facts of their HTML (`htmlDigest`, `media`: an older
 * transform did not store them). Finding them read every public row of the language on every
 * run (6-16 s at 49,595 posts under load); this partial index holds only those rows, so a cache
 * whose rows all have facts answers with an empty index. `TransformedRepo.lackingFacts`
 * spells the same condition (SQLite uses a partial index only for a query stating its `WHERE`).
 * `json_valid` first (CASE evaluates lazily): `json_type` of text that is not JSON fails.
 */
export const upgrade015: SchemaUpgrade = {
  version: 15,
  description: 'index of transform outputs lacking their HTML facts',
  up(db) {
    db.exec(`CREATE INDEX transformed_lacking_facts ON transformed (lang, type, id)
      WHERE CASE WHEN json_valid(meta) THEN json_type(meta, '$.htmlDigest') IS NOT 'text'
        OR json_type(meta, '$.media') IS NOT 'array' ELSE 1 END`);
  },
};
