// A part that fails to render (or to load: after an upgrade the old build's chunks are gone) shows a way out
// instead of taking the whole app down.
import { Component, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<{ children: ReactNode; label: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const chunk = /dynamically imported module|Importing a module script failed|error loading/i.test(this.state.error.message);
    return (
      <div className="empty-state" role="alert">
        <h2>{chunk ? 'Parlance has been updated' : `The ${this.props.label} could not be shown`}</h2>
        <p>{chunk ? 'Reload to use the new version.' : this.state.error.message}</p>
        <p><button type="button" className="button primary" onClick={() => location.reload()}>Reload</button></p>
      </div>
    );
  }
}
