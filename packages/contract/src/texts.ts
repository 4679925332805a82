// User-facing texts of product §2, §8 and §9, kept in one place so server and web say the same thing.

export const PRODUCT_NAME = 'Data Lab';

export const texts = {
  generic: { summary: 'Oops. Something went wrong', message: 'Please try again later' },
  unauthenticated: 'Please log in to continue',
  unauthenticatedToast: 'Unauthenticated, Login to continue',
  unauthorised: { summary: 'Unauthorised', message: 'You are not authorised to perform this action' },
  unknownError: 'An unknown error occurred. Please contact support',
  unknownErrorShort: 'Please contact support',
  tooManyRequests: 'The rate limit has been exceeded for this call.',
  badGateway: 'The call was valid but the target could not process it.',
  notFound: 'The requested resource was not found',
  signInFailed: 'Sign-in failed',
  signOutFailed: 'Sign-out failed',
  mobileNotSupported: { title: 'Mobile mode not supported', message: 'Please use a desktop or tablet device' },
  renderFailure: { title: 'An error occurred', retry: 'Try again' },
  maskedSecret: '********',
  notSet: 'Not set',
  none: 'None',
} as const;

/** Inline error display (product §8). */
export const inlineError = (message: string) => `ERROR: ${message}`;
