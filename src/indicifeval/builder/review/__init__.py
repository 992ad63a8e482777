"""Human review of built rows: the annotation app, agreement, export."""
