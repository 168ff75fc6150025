"""The trained weights written as ONNX: Conv, Relu, MaxPool, Flatten, Gemm.

Built node by node with ``onnx.helper`` rather than traced, so the graph holds
exactly the plain operators :mod:`vision.training.net` names, at an opset
(11) that every OpenCV DNN since 4.5 reads.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.training.net import CHANNELS, Params

OPSET = 11


def to_onnx(params: Params, input_px: tuple[int, int], path: Path) -> None:
    """Write ``params`` as an ONNX model with input ``input`` (n, 3, h, w) and output
    ``logits`` (n, classes)."""
    w, h = input_px
    nodes, inits = [], []

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
        return name

    x = "input"
    for i in range(len(CHANNELS)):
        p = params[f"conv{i}"]
        wn, bn = const(f"conv{i}.w", p["w"]), const(f"conv{i}.b", p["b"])
        nodes.append(helper.make_node("Conv", [x, wn, bn], [f"c{i}"], kernel_shape=[3, 3],
                                      pads=[1, 1, 1, 1], strides=[1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        nodes.append(helper.make_node("MaxPool", [f"r{i}"], [f"p{i}"], kernel_shape=[2, 2],
                                      strides=[2, 2]))
        x = f"p{i}"
    nodes.append(helper.make_node("Flatten", [x], ["flat"], axis=1))
    for j, (src, dst) in enumerate((("flat", "h0"), ("a0", "logits"))):
        p = params[f"fc{j}"]
        nodes.append(helper.make_node("Gemm", [src, const(f"fc{j}.w", p["w"]),
                                               const(f"fc{j}.b", p["b"])], [dst]))
        if j == 0:
            nodes.append(helper.make_node("Relu", ["h0"], ["a0"]))
    classes = int(np.asarray(params["fc1"]["b"]).shape[0])
    graph = helper.make_graph(
        nodes, "reader",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["n", 3, h, w])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", classes])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="splendor-companion")
    model.ir_version = 7
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
