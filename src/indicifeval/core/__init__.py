"""The ground floor every layer stands on: one error family, atomic files, folder locks and
folder ownership, and the one reader of JSON-lines files."""
