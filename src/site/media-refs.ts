/**
 * Which media files public content uses: the scanner lives with the transform, which records
 * each item's references when it makes its HTML.
 */
export { localReferences } from '../transform/local-references.js';
