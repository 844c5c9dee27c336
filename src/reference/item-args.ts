import type { ArgMap, ArgSchema } from './arg-schema.js';
import { text } from './localized.js';
import {
  contextArg,
  excludeArg,
  includeArg,
  offsetArg,
  orderArg,
  orderbyArg,
  pageArg,
  perPageArg,
  searchArg,
} from './list-args.js';

/** Arguments of one item's routes (read, delete) and of an item's revisions list. */
export const REVISION_LIST_ARGS: ArgMap = {
  parent: {
    type: 'integer',
    description: text(
      'The ID for the parent of the revision.',
      'Identyfikator elementu nadrzędnego wersji.',
      'El ID del elemento padre de la revisión.',
    ),
  },
  context: contextArg(),
  page: pageArg,
  per_page: { ...perPageArg, default: undefined },
  search: searchArg,
  exclude: excludeArg,
  include: includeArg,
  offset: offsetArg,
  order: orderArg,
  orderby: {
    ...orderbyArg(['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title']),
  },
};

export const idArg: ArgSchema = {
  type: 'integer',
  description: text(
    'Unique identifier for the post.',
    'Unikalny identyfikator wpisu.',
    'Identificador único de la entrada.',
  ),
};

export const ITEM_READ_ARGS: ArgMap = {
  id: idArg,
  context: contextArg(),
  excerpt_length: {
    type: 'integer',
    description: text(
      'Override the default excerpt length.',
      'Zastąp domyślną długość zajawki.',
      'Sobrescribir la longitud predeterminada del extracto.',
    ),
  },
  password: {
    type: 'string',
    description: text(
      'The password for the post if it is password protected.',
      'Hasło wpisu, jeśli jest chroniony hasłem.',
      'La contraseña de la entrada si está protegida con contraseña.',
    ),
  },
};

export const ITEM_DELETE_ARGS: ArgMap = {
  id: idArg,
  force: {
    type: 'boolean',
    default: false,
    description: text(
      'Whether to bypass Trash and force deletion.',
      'Czy pominąć kosz i wymusić usunięcie.',
      'Si se omite la papelera y se fuerza el borrado.',
    ),
  },
};
