import { Component, type ReactNode } from 'react'
import { errorText } from '../../lib/http-errors'

/**
 * Keeps a failure of a drawing shown beside a bill (its chunk not loading, its renderer throwing)
 * to the drawing's place: the bill stays usable, and the place says what went wrong.
 */
export class DrawingBoundary extends Component<
  { children: ReactNode },
  { failure: string | null }
> {
  override state = { failure: null }

  static getDerivedStateFromError(error: unknown) {
    return { failure: errorText(error) }
  }

  override render() {
    if (this.state.failure === null) return this.props.children
    return (
      <p role="alert" className="text-sm text-red-700">
        The drawing could not be shown: {this.state.failure}
      </p>
    )
  }
}
