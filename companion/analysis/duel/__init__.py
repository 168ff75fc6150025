"""Splendor Duel's analysis: the sampled search over its fast engine and the playouts it runs."""
