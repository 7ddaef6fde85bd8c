"""Standalone reproducers of one case, for the people who fix DirectML and ONNX Runtime.

`dml-conformance repro CASE_ID --cpp DIR` writes one C++ file on DirectML's API (conformance.repro.cpp) that
builds the case's descriptor from the very request the `directml` backend sends its runner, with the runner's
own device code copied in; `--onnx DIR` writes the one-node model the suite's lowering built, its inputs and
expected outputs as ONNX TensorProto files and a script for ONNX Runtime's DirectML provider
(conformance.repro.ort).  Either compares with the oracle, never with a waiver, so its exit status is the
suite's verdict on the case: 0 agrees, 1 differs, 3 not tested.
"""

from __future__ import annotations


class ReproError(Exception):
    """What a reproducer cannot be written or run for (an unknown id, a case with no C or ONNX form, no
    compiler): the CLI prints it and exits 2."""
