"""The foundation every layer stands on: JSON files, the cache folder, the file formats' schemas, child processes."""
