"""``splendor-companion buttons-test`` and ``camera-test``: try the box's hardware.

Thin wrappers over :mod:`firmware`, for the installer's checklist in
hardware.md: press the buttons and see what the program sees (with the LEDs
and buzzer answering), or read a few frames and a still from a camera and
save them.  Stop the service first: one program at a time owns the pins and
the camera.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from companion.commands import CommandError
from companion.output import write_bytes
from firmware import config as fw_config
from firmware.buttons import Button, Gesture, KeyboardPanel, panel_from_spec
from firmware.errors import HardwareError
from firmware.indicators import GpioIndicators, Indicators, Light, NullIndicators, Sound


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "buttons-test",
        help="print button presses (and light the LEDs) to check the wiring",
        description="Print every button event (press, hold = undo) as the program sees it; "
        "on the GPIO panel the LEDs and buzzer answer. Enter/Space/Backspace on a keyboard "
        "panel, 'u' for undo. Stop with Ctrl-C.",
    )
    p.add_argument(
        "--panel",
        metavar="SPEC",
        help="gpio, keyboard or script:FILE (default: gpio on a Raspberry Pi, else keyboard)",
    )
    p.add_argument("--seconds", type=float, help="stop after this many seconds")
    p.add_argument("--count", type=int, help="stop after this many events")
    _add_config_option(p)
    p.set_defaults(func=run_buttons)

    c = sub.add_parser(
        "camera-test",
        help="read frames and a still from a camera, report their size and rate",
        description="Open a camera, read frames from its motion stream and one full-resolution "
        "still, print their sizes and the frame rate, and optionally save them as PNG.",
    )
    c.add_argument(
        "--camera",
        metavar="SPEC",
        help="picamera, usb:N, video:FILE or recorded:DIR (default: from the config)",
    )
    c.add_argument("--frames", type=int, default=10, help="frames to read (default: 10)")
    c.add_argument("--out", type=Path, metavar="DIR", help="save frame.png and still.png here")
    _add_config_option(c)
    c.set_defaults(func=run_camera, output_folders=("out",))


def _add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="config file (default: $SPLENDOR_COMPANION_CONFIG, "
        "~/.config/splendor-companion/config.toml, or built-in defaults)",
    )


def _load_config(path: Path | None) -> fw_config.Config:
    try:
        return fw_config.load(path)
    except HardwareError as exc:
        raise CommandError(str(exc)) from None


def run_buttons(args: argparse.Namespace) -> int:
    if args.seconds is not None and not 0 < args.seconds < float("inf"):
        raise CommandError(f"--seconds {args.seconds:g}: give a number of seconds above 0")
    if args.count is not None and args.count < 1:
        raise CommandError(f"--count {args.count}: give 1 or more events")
    config = _load_config(args.config)
    spec = args.panel or ("gpio" if fw_config.is_raspberry_pi() else "keyboard")
    answers = {
        Button.CONFIRM: (Light.YOUR_TURN, Sound.CONFIRM),
        Button.NEXT: (Light.ATTENTION, Sound.CLICK),
        Button.BACK: (Light.ERROR, Sound.ATTENTION),
    }
    try:
        panel = panel_from_spec(spec, config.buttons)
        indicators: Indicators = (
            GpioIndicators.from_config(config.indicators) if spec == "gpio" else NullIndicators()
        )
    except HardwareError as exc:
        raise CommandError(str(exc)) from None
    with panel, indicators:
        if isinstance(panel, KeyboardPanel):
            panel.start_terminal()
            print("Keys: Enter = CONFIRM, Space = NEXT, Backspace = BACK, u = undo.")
        else:
            hold = config.buttons.hold_time
            print(f"Press the buttons; hold BACK {hold:g} s to undo. Ctrl-C stops.")
        start = time.monotonic()
        count = 0
        while args.seconds is None or time.monotonic() - start < args.seconds:
            event = panel.get(timeout=0.1)
            if event is None:
                if panel.exhausted:
                    break
                continue
            count += 1
            print(f"{time.monotonic() - start:7.2f} s  {event}", flush=True)
            light, sound = answers[event.button]
            if event.is_undo:
                sound = Sound.UNDO
            elif event.kind is Gesture.HOLD:
                sound = Sound.ATTENTION
            indicators.show(light)
            indicators.beep(sound)
            if args.count is not None and count >= args.count:
                break
    print(f"{count} event(s).")
    return 0


def run_camera(args: argparse.Namespace) -> int:
    # lazy: numpy loads only when the command runs, not for --help
    from firmware.camera import EndOfSource, open_source

    config = _load_config(args.config)
    spec = args.camera or config.camera_spec()
    if args.frames < 1:
        raise CommandError("--frames must be at least 1")
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        raise CommandError(f"--out {args.out}: this is a file, not a folder")
    print(f"Opening {spec} ...", flush=True)
    try:
        with open_source(
            spec, motion_size=config.camera.motion_size, settle_time=config.camera.settle_time
        ) as source:
            frames = []
            start = time.monotonic()
            for _ in range(args.frames):
                try:
                    frames.append(source.read())
                except EndOfSource:
                    break
            elapsed = time.monotonic() - start
            if not frames:
                raise CommandError(f"{spec} gave no frames")
            try:
                still = source.still()
            except EndOfSource:
                still = frames[-1]
    except HardwareError as exc:
        raise CommandError(str(exc)) from None
    width, height = frames[0].size
    rate = f", {len(frames) / elapsed:.1f} frames/s" if elapsed > 0 else ""
    print(f"{len(frames)} frame(s) of {width}x{height}{rate}")
    print(f"still: {still.size[0]}x{still.size[1]}")
    if args.out is not None:
        # lazy: OpenCV loads only when the command runs, not for --help
        import cv2

        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--out {args.out}: cannot create it: {exc.strerror}") from None

        for name, frame in (("frame.png", frames[0]), ("still.png", still)):
            ok, png = cv2.imencode(".png", frame.image)
            if not ok:
                raise CommandError(f"cannot encode {args.out / name} as PNG")
            write_bytes(args.out / name, png.tobytes(), named=False)
        print(f"Saved frame.png and still.png in {args.out}", file=sys.stderr)
    return 0
