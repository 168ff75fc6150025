"""The learned part of the reader: small convolutional networks run by OpenCV's DNN module.

Geometry stays hand-written (markers, lens, slots, where a card lies); the
per-crop decision "which card is this" is learned from rendered data
(:mod:`vision.training`, offline, ``make train``) and shipped here as ONNX
weights with a manifest.  Nothing here reads ``../shared`` or imports
``vision.synth``: a Raspberry Pi has neither.
"""
