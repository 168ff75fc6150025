"""The networks: plain layers only, so every OpenCV the Pi gets loads them.

Four blocks of 3 x 3 convolution, ReLU and 2 x 2 max pooling, then two linear
layers.  No batch norm (nothing to fold, nothing that differs between training
and reading); the input is standardised per crop (:func:`vision.learned.prep.prepare`)
and the weights start at He's scale, which trains these depths with Adam.
Written for JAX (``[train]`` extra); :mod:`vision.training.export` writes the same
graph as ONNX.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

#: Output channels of the four convolution blocks, and the hidden linear layer's width.
CHANNELS = (16, 32, 64, 96)
HIDDEN = 128

Params = dict[str, Any]


def init(key: jax.Array, input_px: tuple[int, int], classes: int) -> Params:
    """He-initialised weights for an input of ``input_px`` (w, h)."""
    params: Params = {}
    cin = 3
    w, h = input_px
    for i, cout in enumerate(CHANNELS):
        key, sub = jax.random.split(key)
        params[f"conv{i}"] = {
            "w": jax.random.normal(sub, (cout, cin, 3, 3)) * np.sqrt(2 / (9 * cin)),
            "b": jnp.zeros(cout)}
        cin = cout
        w, h = w // 2, h // 2
    flat = cin * w * h
    key, k1, k2 = jax.random.split(key, 3)
    params["fc0"] = {"w": jax.random.normal(k1, (flat, HIDDEN)) * np.sqrt(2 / flat),
                     "b": jnp.zeros(HIDDEN)}
    params["fc1"] = {"w": jax.random.normal(k2, (HIDDEN, classes)) * np.sqrt(1 / HIDDEN),
                     "b": jnp.zeros(classes)}
    return params


def apply(params: Params, x: jax.Array, dropout: float = 0.0,
          key: jax.Array | None = None) -> jax.Array:
    """Logits for a batch ``x`` (n, 3, h, w), NCHW as OpenCV feeds it."""
    for i in range(len(CHANNELS)):
        p = params[f"conv{i}"]
        x = jax.lax.conv_general_dilated(x, p["w"], (1, 1), "SAME",
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
        x = jax.nn.relu(x + p["b"][None, :, None, None])
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    x = x.reshape(x.shape[0], -1)
    if dropout and key is not None:
        keep = jax.random.bernoulli(key, 1 - dropout, x.shape)
        x = jnp.where(keep, x / (1 - dropout), 0)
    x = jax.nn.relu(x @ params["fc0"]["w"] + params["fc0"]["b"])
    logits: jax.Array = x @ params["fc1"]["w"] + params["fc1"]["b"]
    return logits
