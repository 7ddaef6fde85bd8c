"""Case generation: one module per operator, shared by the Hypothesis strategies and the frozen corpus.

common.py holds the choosers, configs and the families every operator has; slice.py,
slice1.py, padding.py and split.py each build, label and break one operator's descriptors,
typed against its descriptor class; operators.py is the table of them (GENERATORS) and the
entry points; corpus.py turns built cases into the frozen corpus (`cases generate`).
"""
