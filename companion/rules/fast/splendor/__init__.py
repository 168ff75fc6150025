"""Splendor's fast engine: flat tables, a mutable state, conversions to and from the rules."""
