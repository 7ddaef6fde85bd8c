"""What reads results files: the HTML report (its heat maps, regression view, escaping), JUnit XML, baselines."""
