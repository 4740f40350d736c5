"""The Python twins of the platform's example graphs."""
