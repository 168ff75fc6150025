"""The companion's one configuration file: TOML, every key documented, every
key optional.

Where it is looked for (first found wins, see :func:`config_path`):

1. the file named by ``$SPLENDOR_COMPANION_CONFIG`` (the systemd unit sets it
   to ``/etc/splendor-companion/config.toml`` on the Pi);
2. ``~/.config/splendor-companion/config.toml`` (``$XDG_CONFIG_HOME`` honoured);
3. nothing: the built-in defaults below, which are also the values written in
   ``firmware/config.example.toml`` (a test keeps the two equal).

Why strict: a key spelt wrong (``hold_tme``) that is silently ignored leaves
the box behaving "wrongly" with no hint why, on a machine without a keyboard.
So unknown sections and keys, wrong types, a pin outside BCM 0-27 and a pin
used twice are all :class:`ConfigError` with one line naming the culprit.

Pins are BCM numbers (what gpiozero calls ``GPIO17``), not physical header
positions.  The defaults avoid the pins of I2C (2, 3), SPI (7-11), the UART
(14, 15) and the HAT EEPROM (0, 1), so a HAT or a serial console still fits;
the three buttons sit side by side on physical pins 11, 13, 15 next to ground
on pin 9 or 14, the LEDs and buzzer on 29, 31, 32, 33 next to ground on 30/34.
The buzzer is on GPIO12 (PWM0) so a passive buzzer could be driven by PWM later.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from firmware.errors import HardwareError

#: Environment variable naming the config file to read.
ENV_VAR = "SPLENDOR_COMPANION_CONFIG"
#: Where ``make install-pi`` puts the file (the unit points the variable here).
SYSTEM_PATH = Path("/etc/splendor-companion/config.toml")
#: The example shipped as package data; the installer copies it to SYSTEM_PATH.
EXAMPLE_PATH = Path(__file__).with_name("config.example.toml")

#: BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+).
BCM_TO_PHYSICAL: Mapping[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
#: Physical ground pins on the 40-pin header.
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)


class ConfigError(HardwareError, ValueError):
    """The config file is unreadable or wrong; the message is one line a user can act on."""


@dataclass(frozen=True)
class ButtonsConfig:
    """The three arcade buttons, each between its GPIO and ground (internal pull-up)."""

    confirm_pin: int = 17  # green, physical 11
    next_pin: int = 27  # yellow, physical 13
    back_pin: int = 22  # red, physical 15
    #: Seconds a button must stay down to count as held (BACK held = undo).
    hold_time: float = 2.0
    #: Seconds after an accepted edge during which further edges are contact bounce.
    bounce_time: float = 0.05


@dataclass(frozen=True)
class IndicatorsConfig:
    """LEDs (through a 220 ohm resistor to ground) and an active buzzer (through an NPN)."""

    your_turn_pin: int = 5  # green LED, physical 29
    attention_pin: int = 6  # yellow LED, physical 31
    error_pin: int = 13  # red LED, physical 33
    buzzer_pin: int = 12  # active buzzer via NPN transistor, physical 32
    #: False silences the buzzer (LEDs still light), e.g. for late-night games.
    buzzer: bool = True


@dataclass(frozen=True)
class CameraConfig:
    """Which camera to use and how the Pi camera is set up."""

    #: ``auto`` (``picamera`` on a Raspberry Pi, else ``recorded:<recorded_dir>``),
    #: ``picamera``, ``usb:N``, ``video:FILE`` or ``recorded:DIR``.
    source: str = "auto"
    #: Folder of images used by ``auto`` off the Pi (relative to the working directory).
    recorded_dir: str = "tests/data/scenes"
    #: Seconds the Pi camera runs auto exposure/white balance before they are fixed.
    settle_time: float = 1.5
    #: Size of the low-resolution stream watched for motion, ``[width, height]``.
    motion_size: tuple[int, int] = (640, 360)
    #: The lens file written by ``splendor-companion calibrate --lens IMAGE`` (JSON:
    #: camera matrix and distortion); "" = fit the lens from each frame's markers.
    lens: str = ""


@dataclass(frozen=True)
class TableConfig:
    """The table's layout (written by ``splendor-companion mats``)."""

    #: Path of ``layout.json``; empty means the layout built into the program.
    layout: str = ""


@dataclass(frozen=True)
class ScreenConfig:
    """The pygame window: the official 7" display is 800x480."""

    width: int = 800
    height: int = 480
    fullscreen: bool = False
    #: Language of the screen, the speech and the review ("en", "fr");
    #: "" = the system locale's (``LANG``), English when it has no catalog.
    language: str = ""


@dataclass(frozen=True)
class SpeechConfig:
    """Speech for players who do not see the screen (``--speech`` turns it on too)."""

    enabled: bool = False
    #: "espeak-ng" (the default, ``apt install espeak-ng``) or "piper:/path/model.onnx".
    voice: str = "espeak-ng"
    #: Words per minute (espeak-ng's default is 175).
    rate: int = 175
    #: Loudness in percent of espeak-ng's default (0-200).
    volume: int = 100


@dataclass(frozen=True)
class StorageConfig:
    """Where games are logged."""

    #: SQLite file; empty means ``$STATE_DIRECTORY/games.db`` under systemd,
    #: else ``~/.local/share/splendor-companion/games.db``.
    database: str = ""


@dataclass(frozen=True)
class Config:
    """The whole configuration; every section has defaults."""

    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    indicators: IndicatorsConfig = field(default_factory=IndicatorsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    table: TableConfig = field(default_factory=TableConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    #: The file the values came from, or None for the built-in defaults.
    path: Path | None = None

    def __post_init__(self) -> None:
        validate_pins(self)

    def pins(self) -> dict[str, int]:
        """Every GPIO the configuration uses, by its ``section.key`` name."""
        return {
            f"{section}.{f.name}": getattr(getattr(self, section), f.name)
            for section in ("buttons", "indicators")
            for f in fields(getattr(self, section))
            if f.name.endswith("_pin")
        }

    def database_path(self, environ: Mapping[str, str] | None = None) -> Path:
        """Where the SQLite game log lives (see :class:`StorageConfig`)."""
        env = os.environ if environ is None else environ
        if self.storage.database:
            return expand_user(self.storage.database, "[storage] database")
        if env.get("STATE_DIRECTORY"):
            # systemd may list several directories separated by ':'; ours is the first.
            return Path(env["STATE_DIRECTORY"].split(":")[0]) / "games.db"
        data_home = env.get("XDG_DATA_HOME") or str(home("the game log", "XDG_DATA_HOME")
                                                    / ".local" / "share")
        return Path(data_home) / "splendor-companion" / "games.db"

    def camera_spec(self, on_pi: bool | None = None) -> str:
        """The camera spec to open, with ``auto`` resolved (see :class:`CameraConfig`)."""
        if self.camera.source != "auto":
            return self.camera.source
        if on_pi is None:
            on_pi = is_raspberry_pi()
        return "picamera" if on_pi else f"recorded:{self.camera.recorded_dir}"


#: The camera specs firmware.camera.parse_source accepts, plus ``auto``.
CAMERA_SPEC = re.compile(r"^(auto|picamera(:\d+)?|usb:\d+|video:.+|recorded:.+)$")

_SECTIONS: dict[str, type] = {
    "buttons": ButtonsConfig,
    "indicators": IndicatorsConfig,
    "camera": CameraConfig,
    "table": TableConfig,
    "screen": ScreenConfig,
    "storage": StorageConfig,
    "speech": SpeechConfig,
}


def validate_pins(config: Config) -> None:
    """Raise ConfigError for a pin outside BCM 0-27 or a pin used twice."""
    pins = config.pins()
    for name, pin in pins.items():
        if not 0 <= pin <= 27:
            raise ConfigError(f"{name} = {pin} is not a GPIO pin: use a BCM number from 0 to 27")
    by_pin: dict[int, list[str]] = {}
    for name, pin in pins.items():
        by_pin.setdefault(pin, []).append(name)
    for pin, names in sorted(by_pin.items()):
        if len(names) > 1:
            raise ConfigError(f"GPIO{pin} is used twice: by {' and '.join(names)}")
    for key, value in (
        ("buttons.hold_time", config.buttons.hold_time),
        ("buttons.bounce_time", config.buttons.bounce_time),
    ):
        if value < 0:
            raise ConfigError(f"{key} = {value} must not be negative")
    if config.buttons.bounce_time >= config.buttons.hold_time:
        raise ConfigError(
            f"buttons.bounce_time ({config.buttons.bounce_time}) must be shorter than "
            f"buttons.hold_time ({config.buttons.hold_time})"
        )
    if not CAMERA_SPEC.match(config.camera.source):
        raise ConfigError(
            f"camera.source = {config.camera.source!r}: use auto, picamera, usb:N, "
            "video:FILE or recorded:DIR"
        )
    if config.screen.width <= 0 or config.screen.height <= 0:
        raise ConfigError(
            f"screen size {config.screen.width}x{config.screen.height} must be positive"
        )


def _convert(where: str, key: str, value: Any, default: Any) -> Any:
    """Check one value's type against its default's; TOML arrays become tuples."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
        expected = "true or false"
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
        expected = "a whole number"
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        expected = "a number"
        value = float(value) if ok else value
    elif isinstance(default, str):
        ok = isinstance(value, str)
        expected = "a string in quotes"
    elif isinstance(default, tuple):
        ok = (
            isinstance(value, list)
            and len(value) == len(default)
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
        )
        expected = f"a list of {len(default)} positive whole numbers"
        value = tuple(value) if ok else value
    else:  # pragma: no cover - every default above is one of these types
        raise TypeError(default)
    if not ok:
        raise ConfigError(f"{where}: [{key}] must be {expected}, not {value!r}")
    return value


def from_mapping(
    data: Mapping[str, Any], where: str = "config", path: Path | None = None
) -> Config:
    """Build a Config from parsed TOML, rejecting unknown sections and keys."""
    sections: dict[str, Any] = {}
    for name, table in data.items():
        if name not in _SECTIONS:
            known = ", ".join(f"[{s}]" for s in _SECTIONS)
            raise ConfigError(f"{where}: unknown section [{name}] (known: {known})")
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: {name} must be a section [{name}], not a value")
        cls = _SECTIONS[name]
        defaults = cls()
        known_keys = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in table.items():
            if key not in known_keys:
                known = ", ".join(sorted(known_keys))
                raise ConfigError(f"{where}: unknown key {key!r} in [{name}] (known: {known})")
            values[key] = _convert(where, f"{name}.{key}", value, getattr(defaults, key))
        sections[name] = cls(**values)
    try:
        return Config(**sections, path=path)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def home(what: str, variable: str) -> Path:
    """The user's home folder; a one-line ``ConfigError`` when it cannot be told.

    WHY: ``Path.home()`` raises ``RuntimeError`` when ``HOME`` is unset and the
    user has no passwd entry (a container, a bare systemd unit): every command
    died with a traceback."""
    try:
        return Path.home()
    except RuntimeError:
        raise ConfigError(f"cannot tell where your home folder is (HOME is not set) for"
                          f" {what}: set HOME or {variable}") from None


def expand_user(text: str, where: str) -> Path:
    """``text`` as a path with a leading ``~`` made the home folder (``"~/g.db"`` used
    to make a folder named ``~`` in the working folder)."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        raise ConfigError(f"{where} {text!r} starts with ~ but the home folder cannot be"
                          " told (HOME is not set)") from None


def config_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The config file to read, or None when the built-in defaults apply.

    ``$SPLENDOR_COMPANION_CONFIG`` is returned even when the file is missing, so
    :func:`load` can say so: a path someone set on purpose must not be ignored.
    """
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return expand_user(env[ENV_VAR], f"${ENV_VAR}")
    if not env.get("XDG_CONFIG_HOME"):
        try:
            Path.home()
        except RuntimeError:  # no home folder: no user config, the defaults apply
            return None
    config_home = Path(env.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    user = config_home / "splendor-companion" / "config.toml"
    return user if user.is_file() else None


def load(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read the configuration from ``path``, or from :func:`config_path` when None."""
    chosen = Path(path) if path is not None else config_path(environ)
    if chosen is None:
        return Config()
    try:
        raw = chosen.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"config file {chosen} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"config file {chosen} is a folder, not a file") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {chosen}: {exc.strerror}") from None
    text = decode_utf8(raw, chosen)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{chosen}: not valid TOML: {exc}") from None
    return from_mapping(data, where=str(chosen), path=chosen)


def decode_utf8(raw: bytes, where: str | Path) -> str:
    """``raw`` as text: UTF-8, with or without a byte-order mark (Windows editors
    add one).  Anything else is a :class:`ConfigError` naming the file, the line
    and the byte: TOML is UTF-8 by definition, and guessing Latin-1 would turn
    a name into mojibake without a word."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{where}: line {line} is not UTF-8 text (byte 0x{raw[exc.start]:02x});"
            " save the file as UTF-8"
        ) from None


def is_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (the device tree names the board)."""
    try:
        return model_file.read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False
