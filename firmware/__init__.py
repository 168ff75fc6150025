"""The Pi's hardware: buttons, indicators and camera sources.

Imports nothing of the project (see ../shared/DESIGN.md).
"""
