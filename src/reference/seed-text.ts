/**
 * Words the seed builds its content from, per language. Polish and Spanish differ in every
 * text and slug; other language segments get English.
 */
export interface SeedText {
  readonly siteName: string;
  readonly siteDescription: string;
  readonly locale: string;
  readonly gmtOffset: number;
  readonly postTitles: readonly string[];
  readonly pageTitles: readonly string[];
  readonly extraPage: string;
  readonly topics: readonly string[];
  readonly words: readonly string[];
  readonly sentences: readonly string[];
  readonly headings: readonly string[];
  readonly excerpts: readonly string[];
  readonly mediaTitles: readonly (readonly [title: string, alt: string, caption: string])[];
  readonly categories: readonly string[];
  readonly tags: readonly string[];
  readonly draftPrefix: string;
  readonly autosaveSuffix: string;
  readonly postPassword: string;
  readonly readMore: string;
  readonly companyName: string;
  readonly representationDescription: string;
}

const PL: SeedText = {
  siteName: 'Lustro treści — demo',
  siteDescription: 'Przykładowa wielojęzyczna witryna z treścią do kopiowania',
  locale: 'pl_PL',
  gmtOffset: 2,
  postTitles: [
    'Zażółć gęślą jaźń: test polskich znaków',
    'Jesienny spacer po Krakowie',
    'Przepis na pierogi ruskie',
    'Notatki z konferencji o dostępności',
    'Jak działa kopia zapasowa treści',
    'Wyprawa w Bieszczady',
    'Łódź nocą — fotoreportaż',
    'Plan wydawniczy na przyszły rok',
    'Stary wpis w koszu',
    'Tylko po hiszpańsku',
    'Przypięte: zasady publikacji',
    'Nagranie z warsztatów',
    'Galeria z Gdańska',
    'Krótka myśl na poniedziałek',
    'Północ w dwóch strefach czasowych',
    'Żurek i inne zupy',
    'Mazury z kajaka',
    'Nowy wygląd witryny',
    'Wywiad z redakcją',
    'Pięć książek na lato',
    'Śląskie kluski krok po kroku',
    'Mapa ścieżek rowerowych',
    'Archiwum numeru wiosennego',
    'Podsumowanie roku',
  ],
  pageTitles: [
    'Strona główna',
    'Blog',
    'O nas',
    'Zespół',
    'Historia',
    'Kontakt',
    'Oś czasu',
    'Polityka prywatności',
  ],
  extraPage: 'Podstrona',
  topics: ['Notatka', 'Relacja', 'Poradnik', 'Felieton', 'Recenzja', 'Kronika', 'Wywiad', 'Szkic'],
  words: [
    'miejska',
    'górska',
    'zimowa',
    'letnia',
    'ogrodowa',
    'kulinarna',
    'techniczna',
    'rodzinna',
  ],
  sentences: [
    'To jest przykładowy akapit, który pokazuje, jak wygląda treść w kopii witryny.',
    'Każdy wpis ma własny adres, datę publikacji i datę ostatniej zmiany.',
    'Żółta łódź płynęła powoli wzdłuż brzegu, a mewy krążyły nad wodą.',
    'Redakcja sprawdza teksty dwa razy, zanim trafią do czytelników.',
    'W archiwum znajdują się starsze artykuły, zdjęcia i nagrania.',
    'Wyszukiwarka w kopii statycznej działa bez serwera.',
    'Źródłowa witryna może być wolna, ale kopia odpowiada natychmiast.',
    'Tłumaczenia mają ten sam identyfikator we wszystkich językach.',
    'Szczegóły techniczne opisujemy w osobnym poradniku.',
    'Zdjęcia w treści mają kilka rozmiarów i tekst alternatywny.',
    'Czytelnicy często pytają o plan kolejnych publikacji.',
    'Ten tekst zawiera polskie znaki: ą, ć, ę, ł, ń, ó, ś, ź, ż.',
  ],
  headings: [
    'Wprowadzenie',
    'Najważniejsze fakty',
    'Szczegóły',
    'Co dalej?',
    'Podsumowanie',
    'Źródła',
  ],
  excerpts: [
    'Krótkie streszczenie wpisu przygotowane przez redakcję.',
    'Zajawka: najważniejsze informacje w jednym zdaniu.',
  ],
  mediaTitles: [
    ['Logo redakcji', 'Logo Lustra treści', 'Nasze logo'],
    ['Rynek w Krakowie', 'Rynek Główny o poranku', 'Kraków, październik'],
    ['Pierogi na talerzu', 'Talerz pierogów ruskich', 'Pierogi z cebulką'],
    ['Bieszczady', 'Połonina w mgle', 'Widok z połoniny'],
    ['Łódź nocą', 'Ulica Piotrkowska nocą', 'Piotrkowska po zmroku'],
    ['Cennik reklam', '', 'Cennik w PDF'],
  ],
  categories: [
    'Bez kategorii',
    'Aktualności',
    'Technologia',
    'Podróże',
    'Kuchnia',
    'Kultura',
    'Nauka',
  ],
  tags: [
    'kraków',
    'góry',
    'przepisy',
    'wywiad',
    'zdjęcia',
    'poradnik',
    'lato',
    'zima',
    'książki',
    'rower',
  ],
  draftPrefix: 'Szkic: ',
  autosaveSuffix: ' (autozapis)',
  postPassword: 'tajne-haslo',
  readMore: 'Czytaj także',
  companyName: 'Lustro Treści sp. z o.o.',
  representationDescription: 'Wydawca przykładowej witryny.',
};

const ES: SeedText = {
  siteName: 'Espejo de contenidos — demo',
  siteDescription: 'Un sitio multilingüe de ejemplo con contenido para copiar',
  locale: 'es_ES',
  gmtOffset: -3,
  postTitles: [
    'Año nuevo, señales y acentos: ñandú',
    'Paseo de otoño por Sevilla',
    'Receta de tortilla de patatas',
    'Notas de la conferencia de accesibilidad',
    'Cómo funciona la copia de seguridad',
    'Solo en polaco',
    'Valencia de noche — reportaje',
    'Plan editorial del próximo año',
    'Entrada antigua en la papelera',
    'Excursión a los Picos de Europa',
    'Fijada: normas de publicación',
    'Grabación del taller',
    'Galería de Bilbao',
    'Una idea breve para el lunes',
    'Medianoche en dos zonas horarias',
    'Gazpacho y otras sopas frías',
    'La costa en kayak',
    'Nuevo diseño del sitio',
    'Entrevista con la redacción',
    'Cinco libros para el verano',
    'Paella paso a paso',
    'Mapa de carriles bici',
    'Archivo del número de primavera',
    'Resumen del año',
  ],
  pageTitles: [
    'Inicio',
    'Blog',
    'Quiénes somos',
    'Equipo',
    'Historia',
    'Contacto',
    'Cronología',
    'Política de privacidad',
  ],
  extraPage: 'Subpágina',
  topics: ['Nota', 'Crónica', 'Guía', 'Columna', 'Reseña', 'Diario', 'Entrevista', 'Borrador'],
  words: [
    'urbana',
    'montañesa',
    'invernal',
    'veraniega',
    'jardinera',
    'culinaria',
    'técnica',
    'familiar',
  ],
  sentences: [
    'Este es un párrafo de ejemplo que muestra cómo se ve el contenido en la copia.',
    'Cada entrada tiene su propia dirección, fecha de publicación y fecha de modificación.',
    'El barco amarillo navegaba despacio junto a la orilla mientras las gaviotas volaban.',
    'La redacción revisa los textos dos veces antes de publicarlos.',
    'En el archivo hay artículos antiguos, fotos y grabaciones.',
    'El buscador de la copia estática funciona sin servidor.',
    'El sitio de origen puede ser lento, pero la copia responde al instante.',
    'Las traducciones tienen el mismo identificador en todos los idiomas.',
    'Los detalles técnicos se describen en una guía aparte.',
    'Las imágenes del contenido tienen varios tamaños y texto alternativo.',
    'Los lectores preguntan a menudo por las próximas publicaciones.',
    'Este texto contiene acentos y eñes: á, é, í, ó, ú, ñ, ü.',
  ],
  headings: [
    'Introducción',
    'Lo más importante',
    'Detalles',
    '¿Y ahora qué?',
    'Resumen',
    'Fuentes',
  ],
  excerpts: [
    'Un breve resumen de la entrada preparado por la redacción.',
    'Extracto: lo esencial en una frase.',
  ],
  mediaTitles: [
    ['Logotipo de la redacción', 'Logotipo de Espejo de contenidos', 'Nuestro logotipo'],
    ['Plaza de España', 'La Plaza de España al amanecer', 'Sevilla, octubre'],
    ['Tortilla en el plato', 'Un plato con tortilla de patatas', 'Tortilla con cebolla'],
    ['Picos de Europa', 'Montañas entre la niebla', 'Vista desde el mirador'],
    ['Valencia de noche', 'La Ciudad de las Artes de noche', 'Valencia tras el anochecer'],
    ['Tarifas de publicidad', '', 'Tarifas en PDF'],
  ],
  categories: ['Sin categoría', 'Noticias', 'Tecnología', 'Viajes', 'Cocina', 'Cultura', 'Ciencia'],
  tags: [
    'sevilla',
    'montaña',
    'recetas',
    'entrevista',
    'fotos',
    'guía',
    'verano',
    'invierno',
    'libros',
    'bici',
  ],
  draftPrefix: 'Borrador: ',
  autosaveSuffix: ' (autoguardado)',
  postPassword: 'clave-secreta',
  readMore: 'Lee también',
  companyName: 'Espejo de Contenidos S.L.',
  representationDescription: 'Autora del sitio de ejemplo.',
};

const EN: SeedText = {
  ...PL,
  siteName: 'Content mirror — demo',
  siteDescription: 'An example multilingual site with content to copy',
  locale: 'en_US',
  gmtOffset: 1,
  postTitles: PL.postTitles.map((_, index) => `Example post ${index + 1}`),
  pageTitles: [
    'Home',
    'Blog',
    'About us',
    'Team',
    'History',
    'Contact',
    'Timeline',
    'Privacy policy',
  ],
  extraPage: 'Subpage',
  topics: ['Note', 'Report', 'Guide', 'Column', 'Review', 'Diary', 'Interview', 'Draft'],
  words: ['urban', 'mountain', 'winter', 'summer', 'garden', 'kitchen', 'technical', 'family'],
  sentences: ES.sentences.map(
    (_, index) => `This is example sentence number ${index + 1} of the mirrored content.`,
  ),
  headings: ['Introduction', 'Key facts', 'Details', 'What next?', 'Summary', 'Sources'],
  excerpts: ['A short summary written by the editors.', 'Excerpt: the essentials in one sentence.'],
  mediaTitles: [
    ['Editorial logo', 'Content mirror logo', 'Our logo'],
    ['Market square', 'The market square in the morning', 'October'],
    ['Dumplings', 'A plate of dumplings', 'Dumplings with onion'],
    ['Mountains', 'Mountains in the fog', 'View from the ridge'],
    ['City at night', 'A street at night', 'After dark'],
    ['Advertising rates', '', 'Rates as PDF'],
  ],
  categories: ['Uncategorized', 'News', 'Technology', 'Travel', 'Food', 'Culture', 'Science'],
  tags: [
    'city',
    'mountains',
    'recipes',
    'interview',
    'photos',
    'guide',
    'summer',
    'winter',
    'books',
    'bike',
  ],
  draftPrefix: 'Draft: ',
  autosaveSuffix: ' (autosave)',
  postPassword: 'secret-password',
  readMore: 'Read also',
  companyName: 'Content Mirror Ltd.',
  representationDescription: 'Publisher of the example site.',
};

export function seedTextFor(lang: string): SeedText {
  if (lang === 'pl') return PL;
  if (lang === 'es') return ES;
  return { ...EN, locale: `${lang}_${lang.toUpperCase()}` };
}
