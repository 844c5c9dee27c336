/**
 * Human-readable text in each language the reference site speaks. The spec shows `pl` and
 * `es`; any other language segment falls back to English so extra languages still work.
 */
export interface Localized {
  readonly en: string;
  readonly pl: string;
  readonly es: string;
}

export function text(en: string, pl: string, es: string): Localized {
  return { en, pl, es };
}

export function localize(value: Localized, lang: string): string {
  if (lang === 'pl') return value.pl;
  if (lang === 'es') return value.es;
  return value.en;
}
