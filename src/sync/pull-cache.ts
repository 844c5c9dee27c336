/**
 * The pull's connection to the cache, and when it is opened. A cache file that is there
 * already is opened once the site's checks are sent (better-sqlite3 loaded, the schema read,
 * the cursors read for the crawl's first pages: first-pages.ts), while the site answers them;
 * a new one only once they have passed, so that a wrong URL, password or role leaves no file
 * behind. Not earlier, while the index is awaited: an open then ran before the index requests
 * were written to their new connections, and delayed them.
 */
import { existsSync } from 'node:fs';
import { openStore, type Store } from '../store/index.js';

export class PullCache {
  readonly #file: string;
  readonly #given: (() => Store) | undefined;
  /** Whether the file was there when the pull started: then it may be opened ahead. */
  readonly ahead: boolean;
  #store: Store | undefined;
  /** No more opening ahead: the pull is over, or it failed once (a lock would wait again). */
  #notAhead = false;

  /**
   * @param file the cache file (`settings.cache`).
   * @param given the caller's connection, opened on first call and closed by the caller (a
   *   `run` builds through it); @default opened here from `file`, closed by `close`
   */
  constructor(file: string, given?: () => Store) {
    this.#file = file;
    this.#given = given;
    this.ahead = existsSync(file);
  }

  /** The connection, opened on the first call. */
  open(): Store {
    return (this.#store ??= this.#given ? this.#given() : openStore(this.#file));
  }

  /**
   * The connection opened ahead of the checks, or undefined: a new file, a pull already over
   * (a refused connection can end it before), or a cache that cannot be opened (tried once;
   * the same failure is reported when the pull opens it after the checks: a wrong password
   * first).
   */
  openAhead(): Store | undefined {
    if (!this.ahead || this.#notAhead) return undefined;
    try {
      return this.open();
    } catch {
      this.#notAhead = true;
      return undefined;
    }
  }

  /** Closes the connection this opened (a given one is the caller's to close). */
  close(): void {
    this.#notAhead = true;
    if (!this.#given) this.#store?.close();
  }
}
