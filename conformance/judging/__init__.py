"""Judging an implementation's answer: bit-exact comparison, known deviations as exact models, waivers."""
