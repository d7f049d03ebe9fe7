"""Running the site for real (issue 39): readiness, JSON logs, Sentry, metrics.

Everything here is outside the move path's modules; they call in with one
line each (``ops.metrics``), and nothing here raises into them.
"""
