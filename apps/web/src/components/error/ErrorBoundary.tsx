import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RenderFailure } from './RenderFailure.tsx';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this changes (e.g. the path), a shown failure is dismissed. */
  resetKey?: unknown;
}

interface ErrorBoundaryState {
  error: Error | null;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** The render-failure fallback around page content; 'Try again' renders the children afresh. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: toError(error) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Render failure', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.reset();
  }

  reset = (): void => {
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error) return <RenderFailure error={this.state.error} onRetry={this.reset} />;
    return this.props.children;
  }
}
