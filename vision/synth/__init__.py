"""The scene renderer: draws Splendor tables for tests, recorded scenes and the demo.

Entry point: :func:`render_scene(scene, layout, camera=..., seed=...)
<vision.synth.render.render_scene>` -> BGR frame.  Build a scene with
:class:`TableScene` directly, from a game state with :func:`scene_from_state`,
or at random with :func:`random_scene`.
"""

from vision.synth.render import Camera, Rendered, render, render_scene
from vision.synth.scene import PlayerScene, TableScene, random_scene, scene_from_state

__all__ = ["Camera", "PlayerScene", "Rendered", "TableScene", "random_scene", "render",
           "render_scene", "scene_from_state"]
