"""Developer tools (not installed with the package)."""
