import { cleanup, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOGIN_REDIRECT_KEY } from '@datalab/contract/paths';
import {
  buildAuth,
  buildCollectionDetail,
  buildCurrentUser,
  buildUser,
  buildUserGroupDetail,
  pageOfItems,
} from '../test/builders.ts';
import { buildDataSourceDetail, buildSqlConnection } from '../test/data-source-builders.ts';
import { fakeApi } from '../test/fake-api.ts';
import { renderApp } from '../test/render-app.tsx';

const signedIn = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ canCreateCollections: true }),
});
const admin = () => ({
  auth: buildAuth({ user: buildUser() }),
  currentUser: buildCurrentUser({ permissions: { canManageUsers: true }, canCreateCollections: true }),
});

const zeros = { calls: 0, errors: 0, rows: 0, bytes: 0, p50Ms: 0, p95Ms: 0, cacheHitRatio: 0, distinctUsers: 0 };
const emptyUsage = {
  ...pageOfItems([]),
  from: '2026-11-16T00:00:00.000Z',
  to: '2026-11-23T00:00:00.000Z',
  granularity: 'day',
  totals: zeros,
  series: [],
  channels: [],
};

describe('the routes of product §2', () => {
  beforeEach(() => {
    fakeApi({
      'GET /api/DataSourceCollection/GetAll': { body: pageOfItems([]) },
      'GET /api/DataSourceCollection/GetByUid/col-1': { body: buildCollectionDetail({ name: 'Sales' }) },
      'GET /api/User': { body: pageOfItems([]) },
      'GET /api/UserGroup': { body: pageOfItems([]) },
      'GET /api/UserGroup/12': { body: buildUserGroupDetail({ id: 12, name: 'Analysts' }) },
      'GET /api/UserGroup/12/Users': { body: [] },
      'GET /api/DataSource/GetAll': { body: pageOfItems([]) },
      'GET /api/DataSource/GetByUid/ds-1': { body: buildDataSourceDetail({ uid: 'ds-1', name: 'Orders' }) },
      'GET /api/SqlConnection': { body: [buildSqlConnection({ name: 'warehouse' })] },
      'GET /api/WebApiConnection': { body: [] },
      // The Usage tab and overview: an empty period is enough to show their screens.
      'GET /api/Reporting/GetDataSourceMetricsSummaries': { body: emptyUsage },
      'GET /api/Reporting/GetUserMetricsSummaries': { body: emptyUsage },
      'GET /api/Download': { body: pageOfItems([]) },
    });
  });

  const screens: [string, string][] = [
    ['/data-source', 'Data assets'],
    ['/data-source/ds-1', 'Orders'],
    ['/data-source/ds-1/call', 'Call Orders'],
    ['/data-source/ds-1/call-dev-mode', 'Call Orders (developer mode)'],
    ['/collection', 'Collections'],
    ['/collection/create', 'Create collection'],
    ['/collection/col-1', 'Sales'],
    ['/collection/col-1/access', 'Sales'],
    ['/collection/col-1/usage', 'Sales'],
    ['/collection/col-1/edit', 'Edit Sales'],
    ['/collection/col-1/edit/access', 'Edit Sales'],
    ['/collection/col-1/edit/data-asset', 'New data asset in Sales'],
    ['/collection/col-1/edit/data-asset/ds-1', 'Edit Orders'],
    ['/collection/col-1/createAsset', 'New data asset in Sales'],
    ['/collection/col-1/edit/connection/warehouse', 'Connection warehouse'],
    ['/tokens', 'Tokens'],
    ['/tokens/createPAT', 'Create personal access token'],
    ['/downloads', 'My downloads'],
    ['/management/user', 'User management'],
    ['/management/user-groups', 'User group management'],
    ['/management/user-group/create', 'Create user group'],
    ['/management/user-group/12/members', 'Analysts'],
    ['/management/cache', 'Cache management'],
    ['/management/logs', 'Log management'],
    ['/management/usage', 'Usage'],
    ['/playground', 'Playground'],
    ['/digital-lab/data-asset/ds-1/call', 'Call Orders'],
    ['/digital-lab/tokens', 'Your tokens'],
    ['/digital-lab/tokens/createPAT', 'Create personal access token'],
    ['/policy/terms-and-conditions', 'Terms and conditions'],
    ['/policy/private-policy', 'Privacy policy'],
    ['/policy/cookie-policy', 'Cookie policy'],
    ['/policy/accessibility', 'Accessibility statement'],
    ['/policy/contact-us', 'Contact us'],
  ];

  it.each(screens)('%s shows "%s"', async (path, title) => {
    renderApp({ path, ...admin() });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
  });

  it('passes route parameters to the screen', async () => {
    renderApp({ path: '/digital-lab/data-asset/ds-1/call', ...signedIn() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Call Orders' })).toBeTruthy();
  });

  it('shows the not-found page for any other path', async () => {
    renderApp({ path: '/no/such/page', ...signedIn() });
    expect(await screen.findByRole('heading', { name: 'The requested resource was not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
  });

  it('keeps only the policy pages public', async () => {
    const { location } = renderApp({ path: '/policy/cookie-policy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cookie policy' })).toBeTruthy();
    expect(location()).toBe('/policy/cookie-policy');
  });

  it.each(['/', '/error?errorSummary=Oops', '/no/such/page'])(
    'sends a signed-out visitor of %s to sign in, carrying the path',
    async (path) => {
      const { location } = renderApp({ path, auth: buildAuth() });
      await waitFor(() => expect(location()).toBe(`/login?returnUrl=${encodeURIComponent(path)}`));
    },
  );

  it('sends a signed-out visitor of the Digital Lab to sign in', async () => {
    const auth = buildAuth();
    const { location } = renderApp({ path: '/digital-lab/tokens', auth });
    await waitFor(() => expect(location()).toBe('/login?returnUrl=%2Fdigital-lab%2Ftokens'));
  });

  it('opens the Digital Lab at its tokens', async () => {
    const { location } = renderApp({ path: '/digital-lab', ...signedIn() });
    await waitFor(() => expect(location()).toBe('/digital-lab/tokens'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your tokens' })).toBeTruthy();
  });

  it('shows the error page when management is opened without canManageUsers', async () => {
    renderApp({ path: '/management/logs', ...signedIn() });
    expect(await screen.findByRole('heading', { name: 'Unauthorised' })).toBeTruthy();
    expect(screen.getByText('You are not authorised to perform this action')).toBeTruthy();
  });
});

describe('home', () => {
  it('says what the signed-in user can do, and sends a Digital Lab partner and nothing else to the Digital Lab', async () => {
    renderApp({ path: '/', ...signedIn() });
    expect(await screen.findByRole('heading', { name: 'What you can do' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Explore collections' })).toBeTruthy();
    cleanup();

    const partner = {
      auth: buildAuth({ user: buildUser() }),
      currentUser: buildCurrentUser({ canUseDigitalLab: true, isDigitalLabOnly: true }),
    };
    const { location } = renderApp({ path: '/', ...partner });
    await waitFor(() => expect(location()).toBe('/digital-lab/tokens'));
  });
});

describe('the cookie policy', () => {
  it('lists the browser storage keys the portal uses', async () => {
    renderApp({ path: '/policy/cookie-policy' });
    expect(await screen.findByText('searchKeywords')).toBeTruthy();
    expect(screen.getByText('datalab.developerMode')).toBeTruthy();
    expect(screen.getByText(LOGIN_REDIRECT_KEY)).toBeTruthy();
    expect(screen.getByText('oidc.user:http://localhost:8080/oidc:datalab-web')).toBeTruthy();
  });
});
