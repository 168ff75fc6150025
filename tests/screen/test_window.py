"""Window and screenshots, headless: no display is needed or opened for real."""

from __future__ import annotations

import cv2
import pygame
import pytest

from companion.rules.splendor.simulate import play_game
from companion.screen import Screen, ScreenView, Window, open_window, save_screenshot


@pytest.fixture(scope="module")
def frame() -> pygame.Surface:
    _, states = play_game(1, ("Ann", "Bob"), "greedy")
    return Screen((800, 480)).draw(ScreenView.waiting(states[3])).copy()


def test_open_window_runs_headless_without_a_display(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert open_window() is None


def test_window_shows_a_surface_at_its_size_or_scaled(frame):
    with Window((400, 300)) as window:  # the dummy driver still gives a display surface
        assert window.headless
        assert window.size == (400, 300)
        window.show(frame)  # 800×480 scaled into 400×300, letterboxed
        shown = window.display
        assert shown.get_at((200, 150)) != shown.get_at((200, 2))  # picture in the middle
        assert shown.get_at((200, 2))[:3] == (22, 25, 31)  # letterbox band
        assert isinstance(window.events(), list)
    with Window((800, 480)) as window:
        window.show(frame)
        assert window.display.get_at((400, 240)) == frame.get_at((400, 240))


def test_screenshot_creates_folders_and_round_trips(tmp_path, frame):
    path = save_screenshot(frame, tmp_path / "shots" / "turn-003.png")
    loaded = pygame.image.load(str(path))
    assert loaded.get_size() == (800, 480)
    assert loaded.get_at((400, 240)) == frame.get_at((400, 240))


def test_screenshot_without_sdl_image_is_encoded_by_opencv(tmp_path, frame, monkeypatch):
    """A pygame built without SDL_image cannot write PNG: OpenCV writes the same picture."""
    monkeypatch.setattr(pygame.image, "get_extended", lambda: False)
    path = save_screenshot(frame, tmp_path / "turn-004.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bgr = cv2.imread(str(path))
    assert bgr.shape == (480, 800, 3)
    for x, y in ((400, 240), (10, 10), (700, 50)):
        assert tuple(bgr[y, x][::-1]) == tuple(frame.get_at((x, y))[:3])


def test_screen_save_writes_the_last_frame(tmp_path):
    screen = Screen((640, 400))
    _, states = play_game(2, ("Ann", "Bob"), "greedy")
    screen.draw(ScreenView.waiting(states[0]))
    path = screen.save(tmp_path / "a.png")
    assert pygame.image.load(str(path)).get_size() == (640, 400)


def test_screen_refuses_a_size_too_small_to_read():
    with pytest.raises(ValueError, match="at least"):
        Screen((100, 60))


def test_fullscreen_opens_at_the_displays_size_and_the_screen_follows():
    with Window(fullscreen=True) as window:
        size = window.size  # the dummy driver reports 1024×768
        assert size[0] > 0 and size[1] > 0
        screen = Screen(size)
        window.show(screen.draw(ScreenView(None, title="Hello")))
        assert window.display.get_size() == size
