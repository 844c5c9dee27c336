import type { ArgMap, ArgSchema } from './arg-schema.js';
import {
  revisionDeleteHandler,
  revisionGetHandler,
  revisionListHandler,
} from './handlers/revisions.js';
import {
  autosaveCreateHandler,
  autosaveGetHandler,
  autosaveListHandler,
} from './handlers/autosaves.js';
import { batchHandler } from './handlers/batch.js';
import {
  createHandler,
  deleteHandler,
  getHandler,
  listHandler,
  updateHandler,
} from './handlers/items.js';
import { mediaCreateHandler } from './handlers/media.js';
import { oembedEmbedHandler, oembedProxyHandler } from './handlers/oembed.js';
import { SEO_ROUTES } from './seo-routes.js';
import { int, route, str } from './route-builders.js';
import { namespaceIndexHandler, siteIndexHandler } from './handlers/site-index.js';
import { MEDIA_SCHEMA, PAGE_SCHEMA, POST_SCHEMA, writableArgs } from './item-schema.js';
import { MEDIA_LIST_ARGS, PAGE_LIST_ARGS, POST_LIST_ARGS, contextArg } from './list-args.js';
import { ITEM_DELETE_ARGS, ITEM_READ_ARGS, REVISION_LIST_ARGS, idArg } from './item-args.js';
import { text } from './localized.js';
import type { Localized } from './localized.js';
import type { RouteDef } from './route-types.js';
import type { ItemType } from './store.js';

/**
 * THE route table: every route the reference serves, its endpoints, their arguments (with
 * localized descriptions) and `allow_batch`. The index is rendered from it and every request
 * is validated against it.
 */

const ID = '(?P<id>[\\d]+)';
const PARENT = '(?P<parent>[\\d]+)';

function described(schema: ArgSchema, description: Localized): ArgSchema {
  return { ...schema, description };
}

function namespaceRoute(namespace: string): RouteDef {
  return route(`/${namespace}`, namespace, [
    {
      methods: ['GET'],
      args: {
        namespace: { default: namespace },
        context: { default: 'view' },
      },
      handler: namespaceIndexHandler(namespace),
    },
  ]);
}

/** Arguments of the revision and autosave routes (the same for posts and pages). */
const REVISION_PARENT = described(
  { type: 'integer' },
  text(
    'The ID for the parent of the revision.',
    'Identyfikator elementu nadrzędnego wersji.',
    'El ID del elemento padre de la revisión.',
  ),
);
const AUTOSAVE_PARENT = described(
  { type: 'integer' },
  text(
    'The ID for the parent of the autosave.',
    'Identyfikator elementu nadrzędnego autozapisu.',
    'El ID del elemento padre del guardado automático.',
  ),
);
const REVISION_ID = described(
  { type: 'integer' },
  text(
    'Unique identifier for the revision.',
    'Unikalny identyfikator wersji.',
    'Identificador único de la revisión.',
  ),
);
const AUTOSAVE_ID = described(
  { type: 'integer' },
  text('The ID for the autosave.', 'Identyfikator autozapisu.', 'El ID del guardado automático.'),
);
const REVISION_FORCE = described(
  { type: 'boolean', default: false },
  text(
    'Required to be true, as revisions do not support trashing.',
    'Musi mieć wartość true, ponieważ wersje nie obsługują kosza.',
    'Debe ser true, ya que las revisiones no admiten la papelera.',
  ),
);

function contentRoutes(collection: 'posts' | 'pages', type: ItemType): RouteDef[] {
  const schema = type === 'post' ? POST_SCHEMA : PAGE_SCHEMA;
  const listArgs = type === 'post' ? POST_LIST_ARGS : PAGE_LIST_ARGS;
  const writable = writableArgs(schema);
  const base = `/cms/v2/${collection}`;
  return [
    route(base, 'cms/v2', [
      { methods: ['GET'], allowBatch: true, args: listArgs, handler: listHandler(type) },
      { methods: ['POST'], allowBatch: true, args: writable, handler: createHandler(type) },
    ]),
    route(`${base}/${ID}`, 'cms/v2', [
      { methods: ['GET'], allowBatch: true, args: ITEM_READ_ARGS, handler: getHandler(type) },
      {
        methods: ['POST', 'PUT', 'PATCH'],
        allowBatch: true,
        args: { id: idArg, ...writable },
        handler: updateHandler(type),
      },
      {
        methods: ['DELETE'],
        allowBatch: true,
        args: ITEM_DELETE_ARGS,
        handler: deleteHandler(type),
      },
    ]),
    route(`${base}/${PARENT}/revisions`, 'cms/v2', [
      { methods: ['GET'], args: REVISION_LIST_ARGS, handler: revisionListHandler(type) },
    ]),
    route(`${base}/${PARENT}/revisions/${ID}`, 'cms/v2', [
      {
        methods: ['GET'],
        args: { parent: REVISION_PARENT, id: REVISION_ID, context: contextArg() },
        handler: revisionGetHandler(type),
      },
      {
        methods: ['DELETE'],
        args: { parent: REVISION_PARENT, id: REVISION_ID, force: REVISION_FORCE },
        handler: revisionDeleteHandler(type),
      },
    ]),
    route(`${base}/${ID}/autosaves`, 'cms/v2', [
      {
        methods: ['GET'],
        args: { parent: AUTOSAVE_PARENT, context: contextArg() },
        handler: autosaveListHandler(type),
      },
      {
        methods: ['POST'],
        args: { parent: AUTOSAVE_PARENT, ...writable },
        handler: autosaveCreateHandler(type),
      },
    ]),
    route(`${base}/${PARENT}/autosaves/${ID}`, 'cms/v2', [
      {
        methods: ['GET'],
        args: { parent: AUTOSAVE_PARENT, id: AUTOSAVE_ID, context: contextArg() },
        handler: autosaveGetHandler(type),
      },
    ]),
  ];
}

const batchArgs: ArgMap = {
  validation: {
    type: 'string',
    enum: ['require-all-validate', 'normal'],
    default: 'normal',
    description: text(
      'The validation mode for the batch.',
      'Tryb walidacji paczki żądań.',
      'El modo de validación del lote.',
    ),
  },
  requests: {
    required: true,
    type: 'array',
    maxItems: 25,
    description: text(
      'The requests to run.',
      'Żądania do wykonania.',
      'Las peticiones que se ejecutarán.',
    ),
    items: {
      type: 'object',
      properties: {
        method: {
          type: 'string',
          enum: ['POST', 'PUT', 'PATCH', 'DELETE'],
          default: 'POST',
          description: text(
            'The HTTP method to use.',
            'Metoda HTTP.',
            'El método HTTP que se usará.',
          ),
        },
        path: {
          type: 'string',
          required: true,
          description: text('The route path.', 'Ścieżka trasy.', 'La ruta.'),
        },
        body: {
          type: 'object',
          properties: {},
          additionalProperties: true,
          description: text('The request body.', 'Treść żądania.', 'El cuerpo de la petición.'),
        },
        headers: {
          type: 'object',
          properties: {},
          additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
          description: text(
            'The request headers.',
            'Nagłówki żądania.',
            'Las cabeceras de la petición.',
          ),
        },
      },
    },
  },
};

const oembedUrl = str(
  text(
    'The URL of the resource for which to fetch oEmbed data.',
    'Adres URL zasobu, dla którego mają zostać pobrane dane oEmbed.',
    'La URL del recurso del que se obtendrán los datos oEmbed.',
  ),
  { format: 'uri', required: true },
);
const maxwidthText = text(
  'The maximum width of the embed frame in pixels.',
  'Maksymalna szerokość ramki osadzenia w pikselach.',
  'El ancho máximo del marco incrustado en píxeles.',
);

export const ROUTES: readonly RouteDef[] = [
  route('/', '', [
    { methods: ['GET'], args: { context: { default: 'view' } }, handler: siteIndexHandler },
  ]),
  route('/batch/v1', 'batch/v1', [{ methods: ['POST'], args: batchArgs, handler: batchHandler }]),
  namespaceRoute('oembed/1.0'),
  route('/oembed/1.0/embed', 'oembed/1.0', [
    {
      methods: ['GET'],
      args: {
        url: oembedUrl,
        format: {
          default: 'json',
          description: text(
            'The oEmbed format to use.',
            'Format oEmbed.',
            'El formato oEmbed que se usará.',
          ),
        },
        maxwidth: { default: 600, description: maxwidthText },
      },
      handler: oembedEmbedHandler,
    },
  ]),
  route('/oembed/1.0/proxy', 'oembed/1.0', [
    {
      methods: ['GET'],
      args: {
        url: oembedUrl,
        format: str(
          text('The oEmbed format to use.', 'Format oEmbed.', 'El formato oEmbed que se usará.'),
          {
            enum: ['json', 'xml'],
            default: 'json',
          },
        ),
        maxwidth: int(maxwidthText, { default: 600 }),
        maxheight: int(
          text(
            'The maximum height of the embed frame in pixels.',
            'Maksymalna wysokość ramki osadzenia w pikselach.',
            'La altura máxima del marco incrustado en píxeles.',
          ),
        ),
        discover: {
          type: 'boolean',
          default: true,
          description: text(
            'Whether to perform an oEmbed discovery request for unsanctioned providers.',
            'Czy wysyłać żądanie wykrywania oEmbed do niezatwierdzonych dostawców.',
            'Si se realiza una petición de descubrimiento oEmbed a proveedores no autorizados.',
          ),
        },
      },
      handler: oembedProxyHandler,
    },
  ]),
  namespaceRoute('seo/v1'),
  ...SEO_ROUTES,
  namespaceRoute('cms/v2'),
  ...contentRoutes('posts', 'post'),
  ...contentRoutes('pages', 'page'),
  route('/cms/v2/media', 'cms/v2', [
    { methods: ['GET'], args: MEDIA_LIST_ARGS, handler: listHandler('attachment') },
    { methods: ['POST'], args: writableArgs(MEDIA_SCHEMA), handler: mediaCreateHandler },
  ]),
  route(`/cms/v2/media/${ID}`, 'cms/v2', [
    {
      methods: ['GET'],
      args: { id: idArg, context: contextArg() },
      handler: getHandler('attachment'),
    },
    {
      methods: ['POST', 'PUT', 'PATCH'],
      args: { id: idArg, ...writableArgs(MEDIA_SCHEMA) },
      handler: updateHandler('attachment'),
    },
    { methods: ['DELETE'], args: ITEM_DELETE_ARGS, handler: deleteHandler('attachment') },
  ]),
  namespaceRoute('cms-site-health/v1'),
  namespaceRoute('cms-block-editor/v1'),
  namespaceRoute('cms-abilities/v1'),
];
