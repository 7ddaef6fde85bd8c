"""The cases: the case format and its loader, input values, clause coverage, generation (Hypothesis strategies, the frozen corpus, the reach set, the stress profile)."""
