"""Parts of the pytest plugin that run live (Hypothesis) rather than from stored cases."""
