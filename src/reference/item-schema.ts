import type { ArgMap, ArgSchema, ContextName } from './arg-schema.js';
import { text } from './localized.js';

/**
 * Response field schemas of posts, pages, media, revisions and autosaves: which fields exist,
 * in which `context`, which are writable. The serializer filters responses with them and the
 * route table derives the create/update arguments from them (one source of truth).
 */
const ALL: readonly ContextName[] = ['view', 'edit', 'embed'];
const VIEW_EDIT: readonly ContextName[] = ['view', 'edit'];
const EDIT: readonly ContextName[] = ['edit'];

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export const POST_FORMATS = [
  'standard',
  'aside',
  'chat',
  'gallery',
  'link',
  'image',
  'quote',
  'status',
  'video',
  'audio',
] as const;
/** Templates the seeded theme offers; `''` is the default template. */
export const TEMPLATES = ['', 'full-width', 'no-title'] as const;

const dateField: ArgSchema = {
  type: ['string', 'null'],
  format: 'date-time',
  context: ALL,
  description: text(
    "The date the post was published, in the site's timezone.",
    'Data publikacji wpisu w strefie czasowej witryny.',
    'La fecha en que se publicó la entrada, en la zona horaria del sitio.',
  ),
};
const dateGmtField: ArgSchema = {
  type: ['string', 'null'],
  format: 'date-time',
  context: VIEW_EDIT,
  description: text(
    'The date the post was published, as GMT.',
    'Data publikacji wpisu w czasie GMT.',
    'La fecha en que se publicó la entrada, en GMT.',
  ),
};
const guidField: ArgSchema = {
  type: 'object',
  context: VIEW_EDIT,
  readonly: true,
  description: text(
    'The globally unique identifier for the post.',
    'Globalnie unikalny identyfikator wpisu.',
    'El identificador global único de la entrada.',
  ),
  properties: {
    raw: {
      type: 'string',
      context: EDIT,
      readonly: true,
      description: text(
        'GUID for the post, as it exists in the database.',
        'GUID wpisu, tak jak jest zapisany w bazie danych.',
        'GUID de la entrada, tal como existe en la base de datos.',
      ),
    },
    rendered: {
      type: 'string',
      context: VIEW_EDIT,
      readonly: true,
      description: text(
        'GUID for the post, transformed for display.',
        'GUID wpisu, przekształcony do wyświetlenia.',
        'GUID de la entrada, transformado para mostrarse.',
      ),
    },
  },
};
const idField: ArgSchema = {
  type: 'integer',
  context: ALL,
  readonly: true,
  description: text(
    'Unique identifier for the post.',
    'Unikalny identyfikator wpisu.',
    'Identificador único de la entrada.',
  ),
};
const linkField: ArgSchema = {
  type: 'string',
  format: 'uri',
  context: ALL,
  readonly: true,
  description: text('URL to the post.', 'Adres URL wpisu.', 'URL de la entrada.'),
};
const modifiedField: ArgSchema = {
  type: 'string',
  format: 'date-time',
  context: VIEW_EDIT,
  readonly: true,
  description: text(
    "The date the post was last modified, in the site's timezone.",
    'Data ostatniej modyfikacji wpisu w strefie czasowej witryny.',
    'La fecha de la última modificación de la entrada, en la zona horaria del sitio.',
  ),
};
const modifiedGmtField: ArgSchema = {
  type: 'string',
  format: 'date-time',
  context: VIEW_EDIT,
  readonly: true,
  description: text(
    'The date the post was last modified, as GMT.',
    'Data ostatniej modyfikacji wpisu w czasie GMT.',
    'La fecha de la última modificación de la entrada, en GMT.',
  ),
};
const slugField: ArgSchema = {
  type: 'string',
  context: ALL,
  description: text(
    'An alphanumeric identifier for the post unique to its type.',
    'Alfanumeryczny identyfikator wpisu, unikalny w obrębie jego typu.',
    'Un identificador alfanumérico de la entrada, único para su tipo.',
  ),
};
const statusField: ArgSchema = {
  type: 'string',
  enum: POST_STATUSES,
  context: VIEW_EDIT,
  description: text(
    'A named status for the post.',
    'Nazwany status wpisu.',
    'Un estado con nombre para la entrada.',
  ),
};
const typeField: ArgSchema = {
  type: 'string',
  context: ALL,
  readonly: true,
  description: text('Type of post.', 'Typ wpisu.', 'Tipo de entrada.'),
};
const passwordField: ArgSchema = {
  type: 'string',
  context: EDIT,
  description: text(
    'A password to protect access to the content and excerpt.',
    'Hasło chroniące dostęp do treści i zajawki.',
    'Una contraseña para proteger el acceso al contenido y al extracto.',
  ),
};
const permalinkTemplateField: ArgSchema = {
  type: 'string',
  context: EDIT,
  readonly: true,
  description: text(
    'Permalink template for the post.',
    'Szablon bezpośredniego odnośnika wpisu.',
    'Plantilla del enlace permanente de la entrada.',
  ),
};
const generatedSlugField: ArgSchema = {
  type: 'string',
  context: EDIT,
  readonly: true,
  description: text(
    'Slug automatically generated from the post title.',
    'Uproszczona nazwa wygenerowana automatycznie z tytułu wpisu.',
    'Slug generado automáticamente a partir del título de la entrada.',
  ),
};
const titleField: ArgSchema = {
  type: 'object',
  context: ALL,
  rawOrObject: true,
  description: text('The title for the post.', 'Tytuł wpisu.', 'El título de la entrada.'),
  properties: {
    raw: {
      type: 'string',
      context: EDIT,
      description: text(
        'Title for the post, as it exists in the database.',
        'Tytuł wpisu, tak jak jest zapisany w bazie danych.',
        'Título de la entrada, tal como existe en la base de datos.',
      ),
    },
    rendered: {
      type: 'string',
      context: ALL,
      readonly: true,
      description: text(
        'HTML title for the post, transformed for display.',
        'Tytuł wpisu w HTML, przekształcony do wyświetlenia.',
        'Título HTML de la entrada, transformado para mostrarse.',
      ),
    },
  },
};
const contentField: ArgSchema = {
  type: 'object',
  context: VIEW_EDIT,
  rawOrObject: true,
  description: text('The content for the post.', 'Treść wpisu.', 'El contenido de la entrada.'),
  properties: {
    raw: {
      type: 'string',
      context: EDIT,
      description: text(
        'Content for the post, as it exists in the database.',
        'Treść wpisu, tak jak jest zapisana w bazie danych.',
        'Contenido de la entrada, tal como existe en la base de datos.',
      ),
    },
    rendered: {
      type: 'string',
      context: VIEW_EDIT,
      readonly: true,
      description: text(
        'HTML content for the post, transformed for display.',
        'Treść wpisu w HTML, przekształcona do wyświetlenia.',
        'Contenido HTML de la entrada, transformado para mostrarse.',
      ),
    },
    block_version: {
      type: 'integer',
      context: EDIT,
      readonly: true,
      description: text(
        'Version of the content block format used by the post.',
        'Wersja formatu bloków treści używana przez wpis.',
        'Versión del formato de bloques de contenido que usa la entrada.',
      ),
    },
    protected: {
      type: 'boolean',
      context: ALL,
      readonly: true,
      description: text(
        'Whether the content is protected with a password.',
        'Czy treść jest chroniona hasłem.',
        'Si el contenido está protegido con contraseña.',
      ),
    },
  },
};
const authorField: ArgSchema = {
  type: 'integer',
  context: ALL,
  description: text(
    'The ID for the author of the post.',
    'Identyfikator autora wpisu.',
    'El ID del autor de la entrada.',
  ),
};
const excerptField: ArgSchema = {
  type: 'object',
  context: ALL,
  rawOrObject: true,
  description: text('The excerpt for the post.', 'Zajawka wpisu.', 'El extracto de la entrada.'),
  properties: {
    raw: {
      type: 'string',
      context: EDIT,
      description: text(
        'Excerpt for the post, as it exists in the database.',
        'Zajawka wpisu, tak jak jest zapisana w bazie danych.',
        'Extracto de la entrada, tal como existe en la base de datos.',
      ),
    },
    rendered: {
      type: 'string',
      context: ALL,
      readonly: true,
      description: text(
        'HTML excerpt for the post, transformed for display.',
        'Zajawka wpisu w HTML, przekształcona do wyświetlenia.',
        'Extracto HTML de la entrada, transformado para mostrarse.',
      ),
    },
    protected: {
      type: 'boolean',
      context: ALL,
      readonly: true,
      description: text(
        'Whether the excerpt is protected with a password.',
        'Czy zajawka jest chroniona hasłem.',
        'Si el extracto está protegido con contraseña.',
      ),
    },
  },
};
const featuredMediaField: ArgSchema = {
  type: 'integer',
  context: ALL,
  description: text(
    'The ID of the featured media for the post.',
    'Identyfikator obrazka wyróżniającego wpisu.',
    'El ID del medio destacado de la entrada.',
  ),
};
const commentStatusField: ArgSchema = {
  type: 'string',
  enum: ['open', 'closed'],
  context: VIEW_EDIT,
  description: text(
    'Whether or not comments are open on the post.',
    'Czy komentarze do wpisu są otwarte.',
    'Si los comentarios están abiertos o no en la entrada.',
  ),
};
const pingStatusField: ArgSchema = {
  type: 'string',
  enum: ['open', 'closed'],
  context: VIEW_EDIT,
  description: text(
    'Whether or not the post can be pinged.',
    'Czy wpis może otrzymywać pingi.',
    'Si la entrada puede recibir pings o no.',
  ),
};
const formatField: ArgSchema = {
  type: 'string',
  enum: POST_FORMATS,
  context: VIEW_EDIT,
  description: text('The format for the post.', 'Format wpisu.', 'El formato de la entrada.'),
};
const postMetaField: ArgSchema = {
  type: 'object',
  context: VIEW_EDIT,
  description: text('Meta fields.', 'Pola metadanych.', 'Campos meta.'),
  properties: {
    footnotes: {
      type: 'string',
      default: '',
      description: text('Footnotes.', 'Przypisy.', 'Notas al pie.'),
    },
  },
};
const stickyField: ArgSchema = {
  type: 'boolean',
  context: VIEW_EDIT,
  description: text(
    'Whether or not the post should be treated as sticky.',
    'Czy wpis ma być traktowany jako przypięty.',
    'Si la entrada debe tratarse como fijada o no.',
  ),
};
const templateField: ArgSchema = {
  type: 'string',
  context: VIEW_EDIT,
  description: text(
    'The theme file to use to display the post.',
    'Plik motywu używany do wyświetlania wpisu.',
    'El archivo del tema que se usará para mostrar la entrada.',
  ),
  check: (value) =>
    (TEMPLATES as readonly string[]).includes(value as string)
      ? undefined
      : {
          code: 'rest_invalid_param',
          message: `Invalid template. Must be one of: ${TEMPLATES.filter(Boolean).join(', ')}.`,
          data: null,
        },
};
function termsField(taxonomy: 'category' | 'post_tag'): ArgSchema {
  return {
    type: 'array',
    items: { type: 'integer' },
    context: VIEW_EDIT,
    description:
      taxonomy === 'category'
        ? text(
            'The terms assigned to the post in the category taxonomy.',
            'Terminy przypisane do wpisu w taksonomii kategorii.',
            'Los términos asignados a la entrada en la taxonomía de categorías.',
          )
        : text(
            'The terms assigned to the post in the post_tag taxonomy.',
            'Terminy przypisane do wpisu w taksonomii tagów.',
            'Los términos asignados a la entrada en la taxonomía de etiquetas.',
          ),
  };
}
const parentField: ArgSchema = {
  type: 'integer',
  context: VIEW_EDIT,
  description: text(
    'The ID for the parent of the post.',
    'Identyfikator elementu nadrzędnego wpisu.',
    'El ID del elemento padre de la entrada.',
  ),
};
const menuOrderField: ArgSchema = {
  type: 'integer',
  context: VIEW_EDIT,
  description: text(
    'The order of the post in relation to other posts.',
    'Kolejność wpisu względem innych wpisów.',
    'El orden de la entrada en relación con otras entradas.',
  ),
};
const seoHeadJsonField: ArgSchema = {
  type: 'object',
  context: VIEW_EDIT,
  readonly: true,
  description: text(
    'Metadata for search engines and social networks, as JSON.',
    'Metadane dla wyszukiwarek i sieci społecznościowych w formacie JSON.',
    'Metadatos para buscadores y redes sociales, en JSON.',
  ),
};

/** The fields every item type starts with, in the order servers send them. */
const ITEM_HEAD: ArgMap = {
  date: dateField,
  date_gmt: dateGmtField,
  guid: guidField,
  id: idField,
  link: linkField,
  modified: modifiedField,
  modified_gmt: modifiedGmtField,
  slug: slugField,
  status: statusField,
  type: typeField,
};

export const POST_SCHEMA: ArgMap = {
  ...ITEM_HEAD,
  password: passwordField,
  permalink_template: permalinkTemplateField,
  generated_slug: generatedSlugField,
  title: titleField,
  content: contentField,
  author: authorField,
  excerpt: excerptField,
  featured_media: featuredMediaField,
  comment_status: commentStatusField,
  ping_status: pingStatusField,
  format: formatField,
  meta: postMetaField,
  sticky: stickyField,
  template: templateField,
  categories: termsField('category'),
  tags: termsField('post_tag'),
  seo_head_json: seoHeadJsonField,
};

export const PAGE_SCHEMA: ArgMap = {
  ...ITEM_HEAD,
  password: passwordField,
  permalink_template: permalinkTemplateField,
  generated_slug: generatedSlugField,
  parent: parentField,
  title: titleField,
  content: contentField,
  author: authorField,
  excerpt: excerptField,
  featured_media: featuredMediaField,
  comment_status: commentStatusField,
  ping_status: pingStatusField,
  menu_order: menuOrderField,
  meta: postMetaField,
  template: templateField,
  seo_head_json: seoHeadJsonField,
};

export const MEDIA_SCHEMA: ArgMap = {
  ...ITEM_HEAD,
  permalink_template: permalinkTemplateField,
  generated_slug: generatedSlugField,
  title: titleField,
  author: authorField,
  featured_media: featuredMediaField,
  comment_status: commentStatusField,
  ping_status: pingStatusField,
  template: templateField,
  meta: {
    type: 'object',
    context: VIEW_EDIT,
    description: text('Meta fields.', 'Pola metadanych.', 'Campos meta.'),
    properties: {},
  },
  alt_text: {
    type: 'string',
    context: ALL,
    description: text(
      'Alternative text to display when attachment is not displayed.',
      'Tekst alternatywny wyświetlany, gdy załącznik nie jest wyświetlany.',
      'Texto alternativo que se muestra cuando no se muestra el adjunto.',
    ),
  },
  caption: {
    type: 'object',
    context: ALL,
    rawOrObject: true,
    description: text('The attachment caption.', 'Podpis załącznika.', 'La leyenda del adjunto.'),
    properties: {
      raw: {
        type: 'string',
        context: EDIT,
        description: text(
          'Caption for the attachment, as it exists in the database.',
          'Podpis załącznika, tak jak jest zapisany w bazie danych.',
          'Leyenda del adjunto, tal como existe en la base de datos.',
        ),
      },
      rendered: {
        type: 'string',
        context: ALL,
        readonly: true,
        description: text(
          'HTML caption for the attachment, transformed for display.',
          'Podpis załącznika w HTML, przekształcony do wyświetlenia.',
          'Leyenda HTML del adjunto, transformada para mostrarse.',
        ),
      },
    },
  },
  description: {
    type: 'object',
    context: VIEW_EDIT,
    rawOrObject: true,
    description: text(
      'The attachment description.',
      'Opis załącznika.',
      'La descripción del adjunto.',
    ),
    properties: {
      raw: {
        type: 'string',
        context: EDIT,
        description: text(
          'Description for the attachment, as it exists in the database.',
          'Opis załącznika, tak jak jest zapisany w bazie danych.',
          'Descripción del adjunto, tal como existe en la base de datos.',
        ),
      },
      rendered: {
        type: 'string',
        context: VIEW_EDIT,
        readonly: true,
        description: text(
          'HTML description for the attachment, transformed for display.',
          'Opis załącznika w HTML, przekształcony do wyświetlenia.',
          'Descripción HTML del adjunto, transformada para mostrarse.',
        ),
      },
    },
  },
  media_type: {
    type: 'string',
    enum: ['image', 'file'],
    context: ALL,
    readonly: true,
    description: text('Attachment type.', 'Typ załącznika.', 'Tipo de adjunto.'),
  },
  mime_type: {
    type: 'string',
    context: ALL,
    readonly: true,
    description: text(
      'The attachment MIME type.',
      'Typ MIME załącznika.',
      'El tipo MIME del adjunto.',
    ),
  },
  media_details: {
    type: 'object',
    context: ALL,
    readonly: true,
    description: text(
      'Details about the media file, specific to its type.',
      'Szczegóły pliku multimedialnego, zależne od jego typu.',
      'Detalles del archivo multimedia, específicos de su tipo.',
    ),
  },
  post: {
    type: 'integer',
    context: VIEW_EDIT,
    description: text(
      'The ID for the associated post of the attachment.',
      'Identyfikator wpisu powiązanego z załącznikiem.',
      'El ID de la entrada asociada al adjunto.',
    ),
  },
  source_url: {
    type: 'string',
    format: 'uri',
    context: ALL,
    readonly: true,
    description: text(
      'URL to the original attachment file.',
      'Adres URL oryginalnego pliku załącznika.',
      'URL del archivo original del adjunto.',
    ),
  },
};

function revisionSchema(kind: 'revision' | 'autosave'): ArgMap {
  const parentText =
    kind === 'revision'
      ? text(
          'The ID for the parent of the revision.',
          'Identyfikator elementu nadrzędnego wersji.',
          'El ID del elemento padre de la revisión.',
        )
      : text(
          'The ID for the parent of the autosave.',
          'Identyfikator elementu nadrzędnego autozapisu.',
          'El ID del elemento padre del guardado automático.',
        );
  return {
    author: authorField,
    date: dateField,
    date_gmt: dateGmtField,
    guid: guidField,
    id: { ...idField, context: ALL },
    modified: modifiedField,
    modified_gmt: modifiedGmtField,
    parent: { type: 'integer', context: ALL, readonly: true, description: parentText },
    slug: slugField,
    title: { ...titleField, context: ALL },
    content: { ...contentField, context: VIEW_EDIT },
    excerpt: excerptField,
    ...(kind === 'autosave'
      ? {
          preview_link: {
            type: 'string',
            format: 'uri',
            context: EDIT,
            readonly: true,
            description: text(
              'Preview link for the post.',
              'Odnośnik podglądu wpisu.',
              'Enlace de vista previa de la entrada.',
            ),
          },
        }
      : {}),
  };
}

export const REVISION_SCHEMA: ArgMap = revisionSchema('revision');
export const AUTOSAVE_SCHEMA: ArgMap = revisionSchema('autosave');

/**
 * The arguments of a create/update endpoint: every writable field of the item schema, with
 * the response-only keywords removed (as servers derive them).
 */
export function writableArgs(schema: ArgMap): ArgMap {
  const out: Record<string, ArgSchema> = {};
  for (const [name, field] of Object.entries(schema)) {
    if (field.readonly) continue;
    const { context: _context, readonly: _readonly, ...rest } = field;
    out[name] = rest;
  }
  return out;
}

/** Whether a top-level field appears in a context. */
export function inContext(schema: ArgMap, field: string, context: ContextName): boolean {
  const contexts = schema[field]?.context;
  return contexts === undefined || contexts.includes(context);
}
