"""Text processing on top of the language profiles: normalisation, scripts, words,
sentences, paragraphs, keyword matching and language identification."""
