"""The generator's version, alone in a module: what keys the caches of generated cases and live draws
(conformance.run.live_cache) without importing the builders (a tenth of a second of a worker's start-up)."""

# Bump when a builder, a value pool or the encoding changes: the same seed then gives a new corpus.
GENERATOR_VERSION = "9"
