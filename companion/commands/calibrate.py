"""``splendor-companion calibrate``: learn the colour classes from a frame of the laid-out table.

Lay the table out for a new game (full supply on the central mat, empty
player token slots, the three decks face down), take one still, and run this
command on it.  The classes are stored as JSON in the XDG config folder
(``~/.config/splendor-companion/colours.json``) or the path given; the
reader uses them from then on, the built-in defaults until then.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import CommandError
from vision.errors import VisionError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="learn token and deck colours from a frame of the table",
                       description=__doc__.splitlines()[0])
    p.add_argument("image", type=Path, help="a still of the freshly laid-out table")
    p.add_argument("--layout", type=Path, required=True, help="layout.json written by `mats`")
    p.add_argument("--out", type=Path, default=None,
                   help="where to store the colours (default: the XDG config folder)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.colours import save_colours
    from vision.layout import load_layout
    from vision.learn import learn_colours
    from vision.read import check_frame, load_image

    try:
        layout = load_layout(args.layout)
        image = check_frame(load_image(args.image))
        model = learn_colours(image, layout, source=f"calibrate {args.image.name}")
        path = save_colours(model, args.out)
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot store colours: {exc.strerror}") from None
    print(f"learned {len(model.tokens)} token and {len(model.backs)} deck colours; "
          f"stored in {path}")
    return 0
