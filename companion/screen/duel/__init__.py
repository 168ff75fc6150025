"""Splendor Duel's sample screens: seeded games drawn for the goldens and previews."""
