/**
 * The stateful part of the `seo/v1` routes for one language: the configuration wizard's
 * state, the site representation that structured data is built from, and indexing progress.
 */
export interface SiteRepresentation {
  company_or_person: 'company' | 'person';
  company_name: string;
  company_logo: string;
  company_logo_id: number;
  person_logo: string;
  person_logo_id: number;
  company_or_person_user_id: number;
  description: string;
}

export interface SocialProfiles {
  facebook_site: string;
  twitter_site: string;
  other_social_urls: string[];
}

export interface SeoState {
  finishedSteps: string[];
  siteRepresentation: SiteRepresentation;
  socialProfiles: SocialProfiles;
  tracking: boolean;
  dismissedAlerts: string[];
  integrations: Record<string, boolean>;
  workouts: Record<string, unknown>;
  /** Item id → the `modifiedGmt` it had when it was indexed; a later edit un-indexes it. */
  indexedItems: Map<number, number>;
  /** Item id → `modifiedGmt` when its internal links were counted. */
  linkIndexedItems: Map<number, number>;
  indexedTerms: Set<number>;
  linkIndexedTerms: boolean;
  postTypeArchivesIndexed: boolean;
  generalIndexed: boolean;
  indexablesComplete: boolean;
  indexingComplete: boolean;
}

export function emptySeoState(
  representation: SiteRepresentation,
  social: SocialProfiles,
): SeoState {
  return {
    finishedSteps: [],
    siteRepresentation: representation,
    socialProfiles: social,
    tracking: false,
    dismissedAlerts: [],
    integrations: {},
    workouts: {},
    indexedItems: new Map(),
    linkIndexedItems: new Map(),
    indexedTerms: new Set(),
    linkIndexedTerms: false,
    postTypeArchivesIndexed: false,
    generalIndexed: false,
    indexablesComplete: false,
    indexingComplete: false,
  };
}
