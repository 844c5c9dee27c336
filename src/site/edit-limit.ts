/**
 * Items changed in a language since its last build beyond which a run plans every page
 * (`edit-language.ts`); at most this many, it plans only the pages they touch. Apart from the
 * edit build so that the build's start (`run-build.ts`) can read it without loading that path.
 */
export const EDIT_LIMIT = 50;
