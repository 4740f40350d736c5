"""The agent runtime's Python graph host (see lgp_host.main)."""
