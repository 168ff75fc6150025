"""Offline training of the learned reader (:mod:`vision.learned`): ``make train``.

Reads the publisher's design faces from ``../shared`` and our own drawn faces,
renders randomised crops as the reader cuts them, trains small plain networks
with JAX and writes them as ONNX for OpenCV's DNN module.  Needs the
``[train]`` extra (jax, optax, onnx); never imported at run time.
"""
