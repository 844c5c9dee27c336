import type { ArgSchema } from './arg-schema.js';
import { text } from './localized.js';

/**
 * The `categories`, `tags` and their `_exclude` list arguments: a list of term ids, or an
 * object with `terms`, `include_children` and `operator`, described as the spec does.
 */
const taxonomyText = {
  category: {
    include: text(
      'Limit result set to items with specific terms assigned in the categories taxonomy.',
      'Ogranicz wyniki do elementów z określonymi terminami w taksonomii kategorii.',
      'Limitar el conjunto de resultados a elementos con términos específicos de la taxonomía de categorías.',
    ),
    exclude: text(
      'Limit result set to items except those with specific terms assigned in the categories taxonomy.',
      'Ogranicz wyniki do elementów bez określonych terminów w taksonomii kategorii.',
      'Limitar el conjunto de resultados a elementos excepto los que tengan términos específicos de la taxonomía de categorías.',
    ),
  },
  post_tag: {
    include: text(
      'Limit result set to items with specific terms assigned in the tags taxonomy.',
      'Ogranicz wyniki do elementów z określonymi terminami w taksonomii tagów.',
      'Limitar el conjunto de resultados a elementos con términos específicos de la taxonomía de etiquetas.',
    ),
    exclude: text(
      'Limit result set to items except those with specific terms assigned in the tags taxonomy.',
      'Ogranicz wyniki do elementów bez określonych terminów w taksonomii tagów.',
      'Limitar el conjunto de resultados a elementos excepto los que tengan términos específicos de la taxonomía de etiquetas.',
    ),
  },
};
export const termsProperty: ArgSchema = {
  type: 'array',
  items: { type: 'integer' },
  default: [],
  description: text('Term IDs.', 'Identyfikatory terminów.', 'IDs de términos.'),
};
export const includeChildrenProperty: ArgSchema = {
  type: 'boolean',
  default: false,
  description: text(
    'Whether to include child terms in the terms limiting the result set.',
    'Czy uwzględnić terminy potomne w terminach ograniczających wyniki.',
    'Si se incluyen los términos hijos en los términos que limitan el conjunto de resultados.',
  ),
};
export const operatorProperty: ArgSchema = {
  type: 'string',
  enum: ['AND', 'OR'],
  default: 'OR',
  description: text(
    'Whether items must be assigned all or any of the specified terms.',
    'Czy elementy muszą mieć przypisane wszystkie, czy dowolne z podanych terminów.',
    'Si los elementos deben tener asignados todos o cualquiera de los términos indicados.',
  ),
};

export function taxonomyArg(
  taxonomy: 'category' | 'post_tag',
  mode: 'include' | 'exclude',
  properties: Record<string, ArgSchema>,
): ArgSchema {
  return {
    type: ['object', 'array'],
    description: taxonomyText[taxonomy][mode],
    oneOf: [
      { title: 'Term ID List', type: 'array', items: { type: 'integer' } },
      {
        title: 'Term ID Taxonomy Query',
        type: 'object',
        properties,
        additionalProperties: false,
      },
    ],
  };
}
