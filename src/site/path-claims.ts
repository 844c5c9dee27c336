/**
 * Which output file belongs to whom. Two items (or an item and a generated file such as
 * `feed.xml` or `page/2/`) may map to the same file, or one to a directory the other needs
 * as a file (`/feed.xml/` vs `/feed.xml`); the first claim wins and later ones are refused,
 * so nothing overwrites anything silently.
 *
 * Claims may be layered: claims made on a layer (`new PathClaims(base)`) see the base's and
 * are kept apart from them, so that a build can try the few posts that contest a path with
 * each other on top of the site's other claims without adding every post to those.
 */
export class PathClaims {
  /** Claimed files, with who claimed them (for the warning). */
  readonly #files = new Map<string, string>();
  /** Every directory some claimed file lives in. */
  readonly #directories = new Set<string>();
  /** Directories the build keeps for itself (theme assets, search bundles). */
  readonly #reserved = new Set<string>();
  readonly #base: PathClaims | undefined;

  constructor(base?: PathClaims) {
    this.#base = base;
  }

  /** Keeps a whole directory (`assets`, `pagefind`) for the build's own files. */
  reserveDirectory(directory: string): void {
    this.#reserved.add(directory);
    this.#directories.add(directory);
  }

  /**
   * What claiming `file` (relative, forward slashes) would collide with, or undefined when it
   * would be granted; nothing is claimed.
   */
  conflict(file: string): string | undefined {
    const taken = this.#ownerOf(file);
    if (taken !== undefined) return `the same file as ${taken}`;
    if (this.#isDirectory(file)) return 'a directory other files need';
    // Each ancestor is a prefix of `file` up to a slash: sliced, not split and joined again
    // (a build claims every public post's file; ~0.1 s of a one-edit run at 10,000 posts).
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
      const ancestor = file.slice(0, slash);
      const owner = this.#ownerOf(ancestor);
      if (owner !== undefined) return `a directory where ${owner} is a file`;
      if (this.#isReserved(ancestor)) return `the build's own ${ancestor}/ directory`;
    }
    return undefined;
  }

  /**
   * Claims `file` (relative, forward slashes) for `owner`. Returns undefined when granted, or
   * a description of what it collides with.
   */
  claim(file: string, owner: string): string | undefined {
    const conflict = this.conflict(file);
    if (conflict !== undefined) return conflict;
    this.#files.set(file, owner);
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1))
      this.#directories.add(file.slice(0, slash));
    return undefined;
  }

  /** Claims a file inside a reserved directory (the build's own), without the checks. */
  claimReserved(file: string, owner: string): void {
    this.#files.set(file, owner);
  }

  has(file: string): boolean {
    return this.#ownerOf(file) !== undefined;
  }

  #ownerOf(file: string): string | undefined {
    return (
      this.#files.get(file) ?? (this.#base === undefined ? undefined : this.#base.#ownerOf(file))
    );
  }

  #isDirectory(directory: string): boolean {
    return (
      this.#directories.has(directory) ||
      (this.#base !== undefined && this.#base.#isDirectory(directory))
    );
  }

  #isReserved(directory: string): boolean {
    return (
      this.#reserved.has(directory) ||
      (this.#base !== undefined && this.#base.#isReserved(directory))
    );
  }
}
