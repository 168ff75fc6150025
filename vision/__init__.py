"""Pixels to observations: mats, calibration and the card and token reader.

Imports numpy, cv2 and companion.rules only (see ../shared/DESIGN.md).
"""
