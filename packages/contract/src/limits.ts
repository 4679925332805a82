// Business constants of product §9.

export const limits = {
  downloadPollIntervalMs: 5000,
  downloadPollMaxAttempts: 12,
  notificationDurationMs: 5000,
  notificationMaxShown: 5,
  mobileWidthPx: 768,
  navCollapsedWidthPx: 72,
  searchHistoryLimit: 10,
  searchHistoryKey: 'searchKeywords',
  accessTokenExpiringNotificationSeconds: 60,
  uploadChunkBytes: 1024 * 1024,
  uploadSimultaneous: 3,
} as const;

export const SIGN_IN_SCOPES = ['profile', 'openid', 'email', 'LOS', 'locality', 'country'] as const;
