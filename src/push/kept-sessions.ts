import type { SiteSession } from './site-session.js';

/**
 * Site sessions a long-running caller (`watch`) keeps between pushes: the site's index is read
 * and the credentials checked once, and the connection stays open, instead of two requests
 * and a new connection before every saved edit. After a push that threw, the caller calls
 * {@link forget}: the next push reads the index and checks the credentials again (a revoked
 * password, a site that was down or changed its routes).
 */
export class KeptSessions {
  readonly #sessions = new Map<string, Promise<SiteSession>>();

  /** The kept session of `lang`, opened with `open` when there is none. */
  get(lang: string, open: () => Promise<SiteSession>): Promise<SiteSession> {
    let session = this.#sessions.get(lang);
    if (session === undefined) {
      session = open();
      this.#sessions.set(lang, session);
      // A session that failed to open is not kept: the next push tries again.
      session.catch(() => {
        if (this.#sessions.get(lang) === session) this.#sessions.delete(lang);
      });
    }
    return session;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Closes and drops every kept session (the next push opens new ones). */
  async forget(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    // One that never opened has nothing to close.
    await Promise.all(
      sessions.map((session) =>
        session.then((opened) => opened.client.close()).catch(() => undefined),
      ),
    );
  }
}
