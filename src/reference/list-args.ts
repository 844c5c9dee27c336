import type { ArgMap, ArgSchema, CheckContext, Issue } from './arg-schema.js';
import { POST_FORMATS } from './item-schema.js';
import { text } from './localized.js';
import {
  includeChildrenProperty,
  operatorProperty,
  taxonomyArg,
  termsProperty,
} from './taxonomy-args.js';

/**
 * Query arguments of collections and item reads, exactly as the spec lists them (defaults,
 * enums, ranges), with localized descriptions for the index.
 */
export const READ_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  'any',
] as const;

export const MEDIA_STATUSES = ['inherit', 'private', 'trash'] as const;
export const MEDIA_TYPES = ['image', 'video', 'text', 'application', 'audio'] as const;

export const contextArg = (fallback: 'view' | 'embed' = 'view'): ArgSchema => ({
  type: 'string',
  enum: ['view', 'embed', 'edit'],
  default: fallback,
  description: text(
    'Scope under which the request is made; determines fields present in response.',
    'Zakres, w którym wykonywane jest żądanie; określa pola obecne w odpowiedzi.',
    'Ámbito en el que se realiza la petición; determina los campos presentes en la respuesta.',
  ),
});

export const pageArg: ArgSchema = {
  type: 'integer',
  default: 1,
  minimum: 1,
  description: text(
    'Current page of the collection.',
    'Bieżąca strona kolekcji.',
    'Página actual de la colección.',
  ),
};
export const perPageArg: ArgSchema = {
  type: 'integer',
  default: 10,
  minimum: 1,
  maximum: 100,
  description: text(
    'Maximum number of items to be returned in result set.',
    'Maksymalna liczba elementów zwracanych w wyniku.',
    'Número máximo de elementos que se devolverán en el conjunto de resultados.',
  ),
};
export const searchArg: ArgSchema = {
  type: 'string',
  description: text(
    'Limit results to those matching a string.',
    'Ogranicz wyniki do pasujących do podanego ciągu znaków.',
    'Limitar los resultados a los que coincidan con una cadena.',
  ),
};
function dateArg(which: 'after' | 'before' | 'modified_after' | 'modified_before'): ArgSchema {
  const en = {
    after: 'published after',
    before: 'published before',
    modified_after: 'modified after',
    modified_before: 'modified before',
  }[which];
  const pl = {
    after: 'opublikowanych po',
    before: 'opublikowanych przed',
    modified_after: 'zmodyfikowanych po',
    modified_before: 'zmodyfikowanych przed',
  }[which];
  const es = {
    after: 'publicadas después de',
    before: 'publicadas antes de',
    modified_after: 'modificadas después de',
    modified_before: 'modificadas antes de',
  }[which];
  return {
    type: 'string',
    format: 'date-time',
    description: text(
      `Limit response to posts ${en} a given ISO8601 compliant date.`,
      `Ogranicz odpowiedź do wpisów ${pl} podanej dacie zgodnej z ISO8601.`,
      `Limitar la respuesta a las entradas ${es} una fecha dada compatible con ISO8601.`,
    ),
  };
}
const intList = (description: ArgSchema['description']): ArgSchema => ({
  type: 'array',
  items: { type: 'integer' },
  default: [],
  description,
});
const authorArg = intList(
  text(
    'Limit result set to posts assigned to specific authors.',
    'Ogranicz wyniki do wpisów przypisanych do określonych autorów.',
    'Limitar el conjunto de resultados a las entradas asignadas a autores específicos.',
  ),
);
const authorExcludeArg = intList(
  text(
    'Ensure result set excludes posts assigned to specific authors.',
    'Wyklucz z wyników wpisy przypisane do określonych autorów.',
    'Asegurar que el conjunto de resultados excluya las entradas de autores específicos.',
  ),
);
export const excludeArg = intList(
  text(
    'Ensure result set excludes specific IDs.',
    'Wyklucz z wyników określone identyfikatory.',
    'Asegurar que el conjunto de resultados excluya IDs específicos.',
  ),
);
export const includeArg = intList(
  text(
    'Limit result set to specific IDs.',
    'Ogranicz wyniki do określonych identyfikatorów.',
    'Limitar el conjunto de resultados a IDs específicos.',
  ),
);
const searchSemanticsArg: ArgSchema = {
  type: 'string',
  enum: ['exact'],
  description: text(
    'How to interpret the search input.',
    'Sposób interpretacji wyszukiwanej frazy.',
    'Cómo interpretar el texto de búsqueda.',
  ),
};
export const offsetArg: ArgSchema = {
  type: 'integer',
  description: text(
    'Offset the result set by a specific number of items.',
    'Przesuń wyniki o określoną liczbę elementów.',
    'Desplazar el conjunto de resultados un número específico de elementos.',
  ),
};
export const orderArg: ArgSchema = {
  type: 'string',
  default: 'desc',
  enum: ['asc', 'desc'],
  description: text(
    'Order sort attribute ascending or descending.',
    'Kierunek sortowania: rosnąco lub malejąco.',
    'Ordenar el atributo de forma ascendente o descendente.',
  ),
};
export const orderbyArg = (values: readonly string[]): ArgSchema => ({
  type: 'string',
  default: 'date',
  enum: values,
  description: text(
    'Sort collection by post attribute.',
    'Sortuj kolekcję według atrybutu wpisu.',
    'Ordenar la colección por un atributo de la entrada.',
  ),
});
const searchColumnsArg: ArgSchema = {
  type: 'array',
  default: [],
  items: { type: 'string', enum: ['post_title', 'post_content', 'post_excerpt'] },
  description: text(
    'Array of column names to be searched.',
    'Lista nazw kolumn do przeszukania.',
    'Lista de nombres de columnas en las que buscar.',
  ),
};
const slugArg: ArgSchema = {
  type: 'array',
  items: { type: 'string' },
  description: text(
    'Limit result set to posts with one or more specific slugs.',
    'Ogranicz wyniki do wpisów o jednej lub kilku określonych uproszczonych nazwach.',
    'Limitar el conjunto de resultados a entradas con uno o más slugs específicos.',
  ),
};

/** Statuses an anonymous reader may list; any other needs credentials (rest_forbidden_status). */
function statusCheck(publicStatuses: readonly string[]) {
  return (value: unknown, context: CheckContext): Issue | undefined => {
    if (context.authenticated) return undefined;
    const statuses = value as string[];
    if (statuses.every((status) => publicStatuses.includes(status))) return undefined;
    return {
      code: 'rest_forbidden_status',
      message: 'Status is forbidden.',
      data: { status: 401 },
    };
  };
}

const statusArg: ArgSchema = {
  type: 'array',
  default: 'publish',
  items: { type: 'string', enum: READ_STATUSES },
  description: text(
    'Limit result set to posts assigned one or more statuses.',
    'Ogranicz wyniki do wpisów o jednym lub kilku statusach.',
    'Limitar el conjunto de resultados a entradas con uno o más estados.',
  ),
  check: statusCheck(['publish']),
};

const commonListArgs = (): Record<string, ArgSchema> => ({
  context: contextArg(),
  page: pageArg,
  per_page: perPageArg,
  search: searchArg,
  after: dateArg('after'),
  modified_after: dateArg('modified_after'),
  author: authorArg,
  author_exclude: authorExcludeArg,
  before: dateArg('before'),
  modified_before: dateArg('modified_before'),
  exclude: excludeArg,
  include: includeArg,
});

const POST_ORDERBY = [
  'author',
  'date',
  'id',
  'include',
  'modified',
  'parent',
  'relevance',
  'slug',
  'include_slugs',
  'title',
] as const;

export const POST_LIST_ARGS: ArgMap = {
  ...commonListArgs(),
  search_semantics: searchSemanticsArg,
  offset: offsetArg,
  order: orderArg,
  orderby: orderbyArg(POST_ORDERBY),
  search_columns: searchColumnsArg,
  slug: slugArg,
  status: statusArg,
  tax_relation: {
    type: 'string',
    enum: ['AND', 'OR'],
    description: text(
      'Limit result set based on relationship between multiple taxonomies.',
      'Ogranicz wyniki na podstawie relacji między wieloma taksonomiami.',
      'Limitar el conjunto de resultados según la relación entre varias taxonomías.',
    ),
  },
  categories: taxonomyArg('category', 'include', {
    terms: termsProperty,
    include_children: includeChildrenProperty,
    operator: operatorProperty,
  }),
  categories_exclude: taxonomyArg('category', 'exclude', {
    terms: termsProperty,
    include_children: includeChildrenProperty,
  }),
  tags: taxonomyArg('post_tag', 'include', { terms: termsProperty, operator: operatorProperty }),
  tags_exclude: taxonomyArg('post_tag', 'exclude', { terms: termsProperty }),
  sticky: {
    type: 'boolean',
    description: text(
      'Limit result set to items that are sticky.',
      'Ogranicz wyniki do przypiętych elementów.',
      'Limitar el conjunto de resultados a elementos fijados.',
    ),
  },
  ignore_sticky: {
    type: 'boolean',
    default: true,
    description: text(
      'Whether to ignore sticky posts or not.',
      'Czy ignorować przypięte wpisy.',
      'Si se ignoran o no las entradas fijadas.',
    ),
  },
  format: {
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', enum: POST_FORMATS },
    description: text(
      'Limit result set to items assigned one or more given formats.',
      'Ogranicz wyniki do elementów o jednym lub kilku podanych formatach.',
      'Limitar el conjunto de resultados a elementos con uno o más formatos dados.',
    ),
  },
};

const parentArgs: Record<string, ArgSchema> = {
  parent: intList(
    text(
      'Limit result set to items with particular parent IDs.',
      'Ogranicz wyniki do elementów o określonych identyfikatorach elementu nadrzędnego.',
      'Limitar el conjunto de resultados a elementos con IDs de padre concretos.',
    ),
  ),
  parent_exclude: intList(
    text(
      'Limit result set to all items except those of a particular parent ID.',
      'Ogranicz wyniki do wszystkich elementów poza tymi o określonym identyfikatorze elementu nadrzędnego.',
      'Limitar el conjunto de resultados a todos los elementos excepto los de un ID de padre concreto.',
    ),
  ),
};

const PAGE_ORDERBY = [...POST_ORDERBY, 'menu_order'] as const;

export const PAGE_LIST_ARGS: ArgMap = {
  ...commonListArgs(),
  menu_order: {
    type: 'integer',
    description: text(
      'Limit result set to posts with a specific menu_order value.',
      'Ogranicz wyniki do wpisów o określonej wartości menu_order.',
      'Limitar el conjunto de resultados a entradas con un valor de menu_order específico.',
    ),
  },
  search_semantics: searchSemanticsArg,
  offset: offsetArg,
  order: orderArg,
  orderby: orderbyArg(PAGE_ORDERBY),
  ...parentArgs,
  search_columns: searchColumnsArg,
  slug: slugArg,
  status: statusArg,
};

export const MEDIA_LIST_ARGS: ArgMap = {
  ...commonListArgs(),
  search_semantics: searchSemanticsArg,
  offset: offsetArg,
  order: orderArg,
  orderby: orderbyArg(POST_ORDERBY),
  ...parentArgs,
  search_columns: searchColumnsArg,
  slug: slugArg,
  status: {
    ...statusArg,
    default: 'inherit',
    items: { type: 'string', enum: MEDIA_STATUSES },
    check: statusCheck(['inherit']),
  },
  media_type: {
    type: 'array',
    default: null,
    items: { type: 'string', enum: MEDIA_TYPES },
    description: text(
      'Limit result set to attachments of a particular media type.',
      'Ogranicz wyniki do załączników określonego typu mediów.',
      'Limitar el conjunto de resultados a adjuntos de un tipo de medio concreto.',
    ),
  },
  mime_type: {
    type: 'array',
    default: null,
    items: { type: 'string' },
    description: text(
      'Limit result set to attachments of a particular MIME type.',
      'Ogranicz wyniki do załączników o określonym typie MIME.',
      'Limitar el conjunto de resultados a adjuntos de un tipo MIME concreto.',
    ),
  },
};
