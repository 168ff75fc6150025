"""Pixels to an :class:`~vision.observation.Observation` of a Splendor table.

Entry points (kept small and stable for the referee):

* :func:`vision.read.read_frame` — one still frame -> ``Observation``;
* :class:`vision.motion.StabilityDetector` — tells when hands have left the table;
* :func:`vision.synth.render_scene` — draws a table scene for tests and the demo.

Imports only numpy, cv2 and :mod:`companion.rules`.
"""
