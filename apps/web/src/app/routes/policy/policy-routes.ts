import type { RouteObject } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { lazyPage } from '../../lazy-page.ts';

export const policyRoutes: RouteObject[] = [
  {
    path: paths.policy('terms-and-conditions'),
    lazy: lazyPage(
      () => import('./TermsPage.tsx'),
      (m) => m.TermsPage,
    ),
  },
  {
    path: paths.policy('private-policy'),
    lazy: lazyPage(
      () => import('./PrivacyPage.tsx'),
      (m) => m.PrivacyPage,
    ),
  },
  {
    path: paths.policy('cookie-policy'),
    lazy: lazyPage(
      () => import('./CookiePolicyPage.tsx'),
      (m) => m.CookiePolicyPage,
    ),
  },
  {
    path: paths.policy('accessibility'),
    lazy: lazyPage(
      () => import('./AccessibilityPage.tsx'),
      (m) => m.AccessibilityPage,
    ),
  },
  {
    path: paths.policy('contact-us'),
    lazy: lazyPage(
      () => import('./ContactPage.tsx'),
      (m) => m.ContactPage,
    ),
  },
];
