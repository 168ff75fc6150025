"""The TOML configuration: defaults, lookup order, and one-line errors."""

from __future__ import annotations

import re
import tomllib
from dataclasses import asdict
from pathlib import Path

import pytest

from firmware.config import (
    BCM_TO_PHYSICAL,
    EXAMPLE_PATH,
    ButtonsConfig,
    Config,
    ConfigError,
    config_path,
    from_mapping,
    is_raspberry_pi,
    load,
)

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_the_example_file_states_exactly_the_defaults():
    example = load(EXAMPLE_PATH)
    defaults = Config()
    assert {k: v for k, v in asdict(example).items() if k != "path"} == {
        k: v for k, v in asdict(defaults).items() if k != "path"
    }
    # and it mentions every key, so it documents them all
    data = tomllib.loads(EXAMPLE_PATH.read_text())
    for section, values in asdict(defaults).items():
        if section != "path":
            assert set(data[section]) == set(values), section


def test_values_override_defaults_and_others_stay(tmp_path: Path):
    config = load(write(tmp_path, "[buttons]\nconfirm_pin = 23\nhold_time = 3\n"))
    assert config.buttons.confirm_pin == 23
    assert config.buttons.hold_time == 3.0 and isinstance(config.buttons.hold_time, float)
    assert config.buttons.back_pin == ButtonsConfig().back_pin
    assert config.path == tmp_path / "config.toml"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[buttons]\nconfirm_pin = 28\n", r"buttons\.confirm_pin = 28 is not a GPIO pin.*0 to 27"),
        ("[buttons]\nback_pin = -1\n", r"buttons\.back_pin = -1 is not a GPIO pin"),
        (
            "[buttons]\nnext_pin = 5\n",
            r"GPIO5 is used twice: by buttons\.next_pin and indicators\.your_turn_pin",
        ),
        (
            "[indicators]\nbuzzer_pin = 13\n",
            r"GPIO13 is used twice: by indicators\.error_pin and indicators\.buzzer_pin",
        ),
        (
            "[buttons]\nhold_tme = 2\n",
            r"unknown key 'hold_tme' in \[buttons\] \(known: .*hold_time",
        ),
        ("[button]\nconfirm_pin = 2\n", r"unknown section \[button\]"),
        ("[buttons]\nconfirm_pin = \"17\"\n", r"\[buttons\.confirm_pin\] must be a whole number"),
        ("[buttons]\nconfirm_pin = 17.0\n", r"must be a whole number"),
        ("[screen]\nfullscreen = 1\n", r"\[screen\.fullscreen\] must be true or false"),
        ("[camera]\nmotion_size = [640]\n", r"must be a list of 2 positive whole numbers"),
        ("[buttons]\nhold_time = -2\n", r"buttons\.hold_time = -2\.0 must not be negative"),
        ("[buttons]\nbounce_time = 3\n", r"bounce_time \(3\.0\) must be shorter than"),
        ("[screen]\nwidth = 0\n", r"screen size 0x480 must be positive"),
        ("[camera]\nsource = \"webcam\"\n", r"camera\.source = 'webcam': use auto, picamera"),
        ("screen = 3\n", r"screen must be a section"),
        ("[buttons\n", r"not valid TOML"),
    ],
)
def test_bad_values_are_one_line_errors_naming_the_culprit(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as info:
        load(path)
    assert "\n" not in str(info.value)
    assert str(path) in str(info.value)


def test_missing_named_file_is_an_error_not_silently_the_defaults(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load(environ={"SPLENDOR_COMPANION_CONFIG": str(tmp_path / "none.toml")})


def test_lookup_order(tmp_path, monkeypatch):
    user = tmp_path / "home" / "splendor-companion" / "config.toml"
    env = {"XDG_CONFIG_HOME": str(tmp_path / "home")}
    assert config_path(env) is None  # nothing anywhere: built-in defaults
    assert load(environ=env) == Config()
    user.parent.mkdir(parents=True)
    user.write_text("[screen]\nfullscreen = true\n")
    assert config_path(env) == user
    assert load(environ=env).screen.fullscreen is True
    chosen = write(tmp_path, "[screen]\nwidth = 1024\n")
    env["SPLENDOR_COMPANION_CONFIG"] = str(chosen)
    assert load(environ=env).screen.width == 1024


def test_database_path_prefers_config_then_systemd_state_directory(tmp_path):
    config = Config()
    assert config.database_path({"STATE_DIRECTORY": "/var/lib/splendor-companion"}) == Path(
        "/var/lib/splendor-companion/games.db"
    )
    assert config.database_path({"XDG_DATA_HOME": "/d"}) == Path(
        "/d/splendor-companion/games.db"
    )
    chosen = from_mapping({"storage": {"database": str(tmp_path / "x.db")}})
    assert chosen.database_path({"STATE_DIRECTORY": "/elsewhere"}) == tmp_path / "x.db"


def test_camera_auto_means_picamera_on_a_pi_only():
    config = Config()
    assert config.camera_spec(on_pi=True) == "picamera"
    assert config.camera_spec(on_pi=False) == "recorded:tests/data/scenes"
    usb = from_mapping({"camera": {"source": "usb:1"}})
    assert usb.camera_spec(on_pi=True) == "usb:1"


def test_raspberry_pi_detection_reads_the_device_tree(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    assert is_raspberry_pi(model)
    model.write_bytes(b"Generic x86\0")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "absent")


def test_header_map_is_the_40_pin_header():
    assert sorted(BCM_TO_PHYSICAL) == list(range(28))
    assert len(set(BCM_TO_PHYSICAL.values())) == 28
    assert BCM_TO_PHYSICAL[17] == 11 and BCM_TO_PHYSICAL[21] == 40 and BCM_TO_PHYSICAL[2] == 3


def test_hardware_md_wiring_table_matches_the_default_pins():
    """hardware.md's wiring rows ("| GPIO17 | 11 |") agree with the defaults."""
    text = (ROOT / "hardware.md").read_text()
    rows = dict(re.findall(r"\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", text))
    for name, pin in Config().pins().items():
        assert str(pin) in rows, f"{name} (GPIO{pin}) missing from hardware.md's wiring table"
        assert rows[str(pin)] == str(BCM_TO_PHYSICAL[pin]), name
