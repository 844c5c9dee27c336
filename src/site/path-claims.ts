/**
 * Which output file belongs to whom. Two items (or an item and a generated file such as
 * `feed.xml` or `page/2/`) may map to the same file, or one to a directory the other needs
 * as a file (`/feed.xml/` vs `/feed.xml`); the first claim wins and later ones are refused,
 * so nothing overwrites anything silently.
 */
export class PathClaims {
  /** Claimed files, with who claimed them (for the warning). */
  readonly #files = new Map<string, string>();
  /** Every directory some claimed file lives in. */
  readonly #directories = new Set<string>();
  /** Directories the build keeps for itself (theme assets, search bundles). */
  readonly #reserved = new Set<string>();

  /** Keeps a whole directory (`assets`, `pagefind`) for the build's own files. */
  reserveDirectory(directory: string): void {
    this.#reserved.add(directory);
    this.#directories.add(directory);
  }

  /**
   * Claims `file` (relative, forward slashes) for `owner`. Returns undefined when granted, or
   * a description of what it collides with.
   */
  claim(file: string, owner: string): string | undefined {
    const taken = this.#files.get(file);
    if (taken !== undefined) return `the same file as ${taken}`;
    if (this.#directories.has(file)) return 'a directory other files need';
    // Each ancestor is a prefix of `file` up to a slash: sliced, not split and joined again
    // (a build claims every public post's file; ~0.1 s of a one-edit run at 10,000 posts).
    const ancestors: string[] = [];
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
      const ancestor = file.slice(0, slash);
      const owner = this.#files.get(ancestor);
      if (owner !== undefined) return `a directory where ${owner} is a file`;
      if (this.#reserved.has(ancestor)) return `the build's own ${ancestor}/ directory`;
      ancestors.push(ancestor);
    }
    this.#files.set(file, owner);
    for (const ancestor of ancestors) this.#directories.add(ancestor);
    return undefined;
  }

  /** Claims a file inside a reserved directory (the build's own), without the checks. */
  claimReserved(file: string, owner: string): void {
    this.#files.set(file, owner);
  }

  has(file: string): boolean {
    return this.#files.has(file);
  }
}
