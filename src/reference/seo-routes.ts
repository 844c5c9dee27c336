import * as seo from './handlers/seo.js';
import { text } from './localized.js';
import { int, route, str } from './route-builders.js';
import type { RouteDef } from './route-types.js';

/** The `seo/v1` part of the route table (arguments as the spec lists them). */
export const SEO_ROUTES: readonly RouteDef[] = [
  route('/seo/v1/file_size', 'seo/v1', [
    {
      methods: ['GET'],
      args: {
        url: str(text('The URL of the file.', 'Adres URL pliku.', 'La URL del archivo.'), {
          required: true,
        }),
      },
      handler: seo.fileSizeHandler,
    },
  ]),
  route('/seo/v1/statistics', 'seo/v1', [
    { methods: ['GET'], args: {}, handler: seo.statisticsHandler },
  ]),
  route('/seo/v1/alerts/dismiss', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        key: {
          required: true,
          description: text('The alert key.', 'Klucz powiadomienia.', 'La clave del aviso.'),
        },
      },
      handler: seo.alertsDismissHandler,
    },
  ]),
  route('/seo/v1/configuration/site_representation', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        company_or_person: str(
          text(
            'Whether the site represents a company or a person.',
            'Czy witryna reprezentuje firmę, czy osobę.',
            'Si el sitio representa a una empresa o a una persona.',
          ),
          { enum: ['company', 'person'], required: true },
        ),
        company_name: str(text('The company name.', 'Nazwa firmy.', 'El nombre de la empresa.')),
        company_logo: str(
          text(
            'The company logo URL.',
            'Adres URL logo firmy.',
            'La URL del logotipo de la empresa.',
          ),
        ),
        company_logo_id: int(
          text(
            'The company logo media ID.',
            'Identyfikator mediów logo firmy.',
            'El ID del medio del logotipo de la empresa.',
          ),
        ),
        person_logo: str(
          text(
            'The person logo URL.',
            'Adres URL logo osoby.',
            'La URL del logotipo de la persona.',
          ),
        ),
        person_logo_id: int(
          text(
            'The person logo media ID.',
            'Identyfikator mediów logo osoby.',
            'El ID del medio del logotipo de la persona.',
          ),
        ),
        company_or_person_user_id: int(
          text(
            'The user the site represents.',
            'Użytkownik reprezentowany przez witrynę.',
            'El usuario que representa el sitio.',
          ),
        ),
        description: str(
          text('The site description.', 'Opis witryny.', 'La descripción del sitio.'),
        ),
      },
      handler: seo.siteRepresentationHandler,
    },
  ]),
  route('/seo/v1/configuration/social_profiles', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        facebook_site: str(
          text(
            'The Facebook page URL.',
            'Adres URL strony na Facebooku.',
            'La URL de la página de Facebook.',
          ),
        ),
        twitter_site: str(
          text(
            'The X (Twitter) username.',
            'Nazwa użytkownika w X (Twitter).',
            'El nombre de usuario de X (Twitter).',
          ),
        ),
        other_social_urls: {
          type: 'array',
          description: text(
            'Other social profile URLs.',
            'Adresy URL innych profili społecznościowych.',
            'URL de otros perfiles sociales.',
          ),
        },
      },
      handler: seo.socialProfilesHandler,
    },
  ]),
  route('/seo/v1/configuration/check_capability', 'seo/v1', [
    {
      methods: ['GET'],
      args: {
        user_id: {
          required: true,
          description: text('The user ID.', 'Identyfikator użytkownika.', 'El ID del usuario.'),
        },
      },
      handler: seo.checkCapabilityHandler,
    },
  ]),
  route('/seo/v1/configuration/enable_tracking', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        tracking: {
          type: 'boolean',
          required: true,
          description: text(
            'Whether usage tracking is enabled.',
            'Czy śledzenie użycia jest włączone.',
            'Si el seguimiento de uso está activado.',
          ),
        },
      },
      handler: seo.enableTrackingHandler,
    },
  ]),
  route('/seo/v1/configuration/save_configuration_state', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        finishedSteps: {
          type: 'array',
          required: true,
          description: text(
            'The finished configuration steps.',
            'Ukończone kroki konfiguracji.',
            'Los pasos de configuración terminados.',
          ),
        },
      },
      handler: seo.saveConfigurationStateHandler,
    },
  ]),
  route('/seo/v1/configuration/get_configuration_state', 'seo/v1', [
    { methods: ['GET'], args: {}, handler: seo.getConfigurationStateHandler },
  ]),
  route('/seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)', 'seo/v1', [
    { methods: ['POST'], args: {}, handler: seo.importHandler },
  ]),
  ...(
    [
      ['indexing/posts', seo.indexPostsHandler],
      ['indexing/terms', seo.indexTermsHandler],
      ['indexing/post-type-archives', seo.indexPostTypeArchivesHandler],
      ['indexing/general', seo.indexGeneralHandler],
      ['indexing/prepare', seo.indexPrepareHandler],
      ['indexing/indexables-complete', seo.indexablesCompleteHandler],
      ['indexing/complete', seo.indexingCompleteHandler],
      ['link-indexing/posts', seo.linkIndexPostsHandler],
      ['link-indexing/terms', seo.linkIndexTermsHandler],
    ] as const
  ).map(([path, handler]) =>
    route(`/seo/v1/${path}`, 'seo/v1', [{ methods: ['POST'], args: {}, handler }]),
  ),
  route('/seo/v1/integrations/set_active', 'seo/v1', [
    {
      methods: ['POST'],
      args: {
        active: {
          type: 'boolean',
          required: true,
          description: text(
            'Whether the integration is active.',
            'Czy integracja jest aktywna.',
            'Si la integración está activa.',
          ),
        },
        integration: str(
          text('The integration name.', 'Nazwa integracji.', 'El nombre de la integración.'),
          { required: true },
        ),
      },
      handler: seo.setActiveHandler,
    },
  ]),
  route('/seo/v1/meta/search', 'seo/v1', [
    { methods: ['GET'], args: {}, handler: seo.metaSearchHandler },
  ]),
  route('/seo/v1/workouts', 'seo/v1', [
    { methods: ['GET'], args: {}, handler: seo.workoutsGetHandler },
    { methods: ['POST'], args: {}, handler: seo.workoutsPostHandler },
  ]),
];
