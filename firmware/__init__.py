"""The Pi's hardware: buttons, indicators and camera sources.

Imports nothing of the project (see ../shared/DESIGN.md).  Modules:

- :mod:`firmware.buttons`: ``ButtonEvent`` values from a ``ButtonPanel``
  (``GpioPanel``, ``KeyboardPanel``, ``ScriptedPanel``; ``panel_from_spec``);
- :mod:`firmware.indicators`: LEDs and buzzer (``GpioIndicators``, ``NullIndicators``);
- :mod:`firmware.camera`: ``FrameSource`` (``PiCameraSource``, ``OpenCVSource``,
  ``RecordedSource``; ``open_source``) and ``ResilientSource``;
- :mod:`firmware.config`: the TOML configuration (``load``);
- :mod:`firmware.watchdog`: systemd's sd_notify (``Notifier``);
- :mod:`firmware.errors`: ``HardwareError``, the base of every error here.

Submodules are imported on demand (``from firmware.buttons import ...``) so
that importing one part never loads OpenCV or gpiozero for another.
"""
