import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../../components/error/ErrorBoundary.tsx';
import { buildAuth, buildCurrentUser, buildUser } from '../../../test/builders.ts';
import { renderApp } from '../../../test/render-app.tsx';

const signedIn = () => ({ auth: buildAuth({ user: buildUser() }), currentUser: buildCurrentUser() });

describe('the error page', () => {
  it('shows the summary and message it is given, an image and a Home button', async () => {
    renderApp({
      path: '/error?errorSummary=Unauthorised&errorMessage=You%20are%20not%20authorised%20to%20perform%20this%20action',
      ...signedIn(),
    });
    expect(await screen.findByRole('heading', { name: 'Unauthorised' })).toBeTruthy();
    expect(screen.getByText('You are not authorised to perform this action')).toBeTruthy();
    expect(screen.getByRole('img')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
  });

  it('falls back to the generic texts', async () => {
    renderApp({ path: '/error', ...signedIn() });
    expect(await screen.findByRole('heading', { name: 'Oops. Something went wrong' })).toBeTruthy();
    expect(screen.getByText('Please try again later')).toBeTruthy();
  });

  it('shows the details in developer mode only', async () => {
    const path =
      '/error?errorSummary=Failed&errorMessage=It%20broke&details=403%20GET%20%2Fapi%2FCaching%2FGetCacheKeys';
    const first = renderApp({ path, ...signedIn() });
    await screen.findByRole('heading', { name: 'Failed' });
    expect(screen.queryByText('403 GET /api/Caching/GetCacheKeys')).toBeNull();
    first.unmount();

    window.localStorage.setItem('datalab.developerMode', 'true');
    renderApp({ path, ...signedIn() });
    expect(await screen.findByText('403 GET /api/Caching/GetCacheKeys')).toBeTruthy();
  });
});

describe('the render-failure fallback', () => {
  function Flaky({ shouldFail }: { shouldFail: () => boolean }) {
    if (shouldFail()) throw new Error('The grid could not be drawn');
    return <p>grid drawn</p>;
  }

  it("shows 'An error occurred' and the message, and 'Try again' renders afresh", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let isBroken = true;
    function Page() {
      const [key] = useState(0);
      return (
        <ErrorBoundary>
          <Flaky key={key} shouldFail={() => isBroken} />
        </ErrorBoundary>
      );
    }
    render(
      <MantineProvider env="test">
        <Page />
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { name: 'An error occurred' })).toBeTruthy();
    expect(screen.getByText('The grid could not be drawn')).toBeTruthy();

    isBroken = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('grid drawn')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'An error occurred' })).toBeNull();
    vi.restoreAllMocks();
  });
});
