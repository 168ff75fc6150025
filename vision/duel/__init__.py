"""Splendor Duel's table, read by the camera: its mats (:mod:`vision.duel.layout`) and
its reader (:mod:`vision.duel.read`)."""
