"""Running models on the benchmark: backends behind one interface, resumable run folders,
thinking-aware answers."""
