// Route paths of the single-page app (product §2). Builders fill the placeholders.

export const paths = {
  home: '/',
  dataSources: '/data-source',
  dataSource: (uid: string) => `/data-source/${encodeURIComponent(uid)}`,
  dataSourceCall: (uid: string) => `/data-source/${encodeURIComponent(uid)}/call`,
  dataSourceCallDevMode: (uid: string) => `/data-source/${encodeURIComponent(uid)}/call-dev-mode`,
  collections: '/collection',
  collectionCreate: '/collection/create',
  collection: (uid: string, tab?: string) => `/collection/${encodeURIComponent(uid)}${tab ? `/${tab}` : ''}`,
  collectionEdit: (uid: string, tab?: string) => `/collection/${encodeURIComponent(uid)}/edit${tab ? `/${tab}` : ''}`,
  collectionEditAsset: (uid: string, assetUid?: string) =>
    `/collection/${encodeURIComponent(uid)}/edit/data-asset${assetUid ? `/${encodeURIComponent(assetUid)}` : ''}`,
  collectionCreateAsset: (uid: string) => `/collection/${encodeURIComponent(uid)}/createAsset`,
  collectionEditConnection: (uid: string, name: string) =>
    `/collection/${encodeURIComponent(uid)}/edit/connection/${encodeURIComponent(name)}`,
  /** The calling layer's OpenAPI document of the assets the user may call (added for the portal). */
  callingApi: '/calling-api',
  tokens: '/tokens',
  tokenCreatePat: '/tokens/createPAT',
  /** The caller's own download jobs (not in product §2, added: docs/decisions.md). */
  downloads: '/downloads',
  userManagement: '/management/user',
  userGroups: '/management/user-groups',
  userGroupCreate: '/management/user-group/create',
  userGroup: (id: string | number, tab: string) => `/management/user-group/${id}/${tab}`,
  cacheManagement: '/management/cache',
  logManagement: '/management/logs',
  /** The administrators' usage overview (not in product §2, added: docs/decisions.md). */
  usageOverview: '/management/usage',
  playground: '/playground',
  login: '/login',
  logout: '/logout',
  signInCallback: '/auth/token',
  postLogoutCallback: '/auth/logout',
  identityResolve: '/Home/IdentityResolve',
  error: '/error',
  policy: (page: PolicyPage) => `/policy/${page}`,
  digitalLabAssetCall: (uid: string) => `/digital-lab/data-asset/${encodeURIComponent(uid)}/call`,
  digitalLabTokens: '/digital-lab/tokens',
  digitalLabCallingApi: '/digital-lab/calling-api',
  digitalLabTokenCreatePat: '/digital-lab/tokens/createPAT',
} as const;

export const policyPages = [
  'terms-and-conditions',
  'private-policy',
  'cookie-policy',
  'accessibility',
  'contact-us',
] as const;
export type PolicyPage = (typeof policyPages)[number];

/** The sessionStorage key holding the path to return to after sign-in (product §4). */
export const LOGIN_REDIRECT_KEY = 'datalab.loginRedirect';
