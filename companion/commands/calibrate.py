"""``splendor-companion calibrate``: learn the colour classes (and, with ``--lens``, the lens).

Lay the table out for a new game (full supply on the central mat, empty
player token slots, the three decks face down), take one still, and run this
command on it.  The classes are stored as JSON in the XDG config folder
(``~/.config/splendor-companion/colours.json``) or the path given; the
reader uses them from then on, the built-in defaults until then.

``--lens IMAGE`` fits the camera's lens (focal length and radial distortion)
from the mats' markers of one still of the whole table, taken by the camera
as it is mounted, and stores it (``lens.json`` beside the colours, or
``--lens-out``); name that file in the config's ``[camera] lens`` and the
reader then fits only where each mat lies, through this lens.  Without it the
lens is fitted from every frame's markers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import CommandError
from companion.output import write_text
from vision.errors import VisionError
from vision.layout import load_layout


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("calibrate", help="learn token and deck colours from a frame of the table",
                       description=__doc__.splitlines()[0])
    p.add_argument("image", type=Path, nargs="?", default=None,
                   help="a still of the freshly laid-out table")
    p.add_argument("--layout", type=Path, required=True, help="layout.json written by `mats`")
    p.add_argument("--out", type=Path, default=None,
                   help="where to store the colours (default: the XDG config folder)")
    p.add_argument("--lens", type=Path, default=None, metavar="IMAGE",
                   help="fit the camera's lens from this still of the whole table")
    p.add_argument("--lens-out", type=Path, default=None,
                   help="where to store the lens (default: lens.json in the XDG config folder)")
    p.set_defaults(func=run, outputs=("out", "lens_out"))


def run(args: argparse.Namespace) -> int:
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.colours import save_colours

    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.learn import learn_colours
    from vision.read import check_frame, load_image

    if args.image is None and args.lens is None:
        raise CommandError("give a still of the table (colours) and/or --lens IMAGE")
    try:
        layout = load_layout(args.layout)
        if args.lens is not None:
            _lens(args, layout)
        if args.image is None:
            return 0
        image = check_frame(load_image(args.image))
        model = learn_colours(image, layout, source=f"calibrate {args.image.name}")
        path = save_colours(model, args.out, write=write_text)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot store colours or lens: {exc.strerror}") from None
    print(f"learned {len(model.tokens)} token colours; stored in {path}")
    print(scale_line(image, layout))
    return 0


#: The reader's need at the corners of what it reads (hardware.md, camera height).
MIN_PX_PER_MM = 3.0


def scale_line(image: object, layout: object) -> str:
    """The measured scale over the central mat (px/mm at its centre and its worst
    corner, from the markers' homography): the check hardware.md asks for after
    hanging the camera."""
    # lazy: OpenCV loads only when the command runs, not for --help
    import numpy as np

    from vision.calibrate import calibrate

    cal = calibrate(image, layout)  # type: ignore[arg-type]
    if cal is None:
        return "scale: no marker visible; cannot measure px/mm"
    mat = layout.mat("centre")  # type: ignore[attr-defined]
    h = cal.h_for("centre")

    def px_per_mm(p: tuple[float, float]) -> float:
        # the homography's local area scale: sqrt of the Jacobian's determinant
        x, y = p
        d = 1e-3
        pts = np.array([[x, y, 1], [x + d, y, 1], [x, y + d, 1]], np.float64) @ h.T
        pts = pts[:, :2] / pts[:, 2:]
        jac = np.column_stack([(pts[1] - pts[0]) / d, (pts[2] - pts[0]) / d])
        return float(np.sqrt(abs(np.linalg.det(jac))))

    centre = px_per_mm(mat.center)
    corners = min(px_per_mm(c) for c in mat.corners())
    verdict = ("enough" if corners >= MIN_PX_PER_MM else
               "too few: lower the camera or use the other lens (hardware.md)")
    return (f"scale: {centre:.1f} px/mm at the central mat's centre, {corners:.1f} at its"
            f" worst corner (the reader wants {MIN_PX_PER_MM:.0f} or more: {verdict})")


def _lens(args: argparse.Namespace, layout: object) -> None:
    # lazy: OpenCV loads only when the command runs, not for --help
    from vision.calibrate import fit_table_lens
    from vision.lens import save_lens
    from vision.read import check_frame, load_image

    fit = fit_table_lens(check_frame(load_image(args.lens)), layout)  # type: ignore[arg-type]
    path = save_lens(fit.lens, args.lens_out, write=write_text)
    k1, k2 = (float(v) for v in fit.lens.distortion[:2])
    print(f"lens: focal {fit.lens.focal:.0f} px, k1 {k1:+.4f}, k2 {k2:+.4f}, "
          f"{fit.rms_px:.2f} px RMS over the markers; stored in {path} "
          f"(set [camera] lens = \"{path}\" in the config)")
