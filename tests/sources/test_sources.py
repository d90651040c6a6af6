"""The simple frame sources, on real files: scripted, synthetic, image folder, video file."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion.sources import (
    EndOfStream,
    Frame,
    FrameSource,
    Hang,
    ImageFolderSource,
    ScriptedSource,
    SourceError,
    SyntheticSource,
    VideoCaptureSource,
)


def solid(value: int, shape=(48, 64)) -> np.ndarray:
    return np.full((*shape, 3), value, np.uint8)


def test_every_source_satisfies_the_protocol(tmp_path):
    for src in (ScriptedSource([]), SyntheticSource(lambda t: solid(0)),
                ImageFolderSource(tmp_path), VideoCaptureSource(0)):
        assert isinstance(src, FrameSource)


def test_scripted_source_plays_frames_stalls_and_raises():
    boom = SourceError("unplugged")
    src = ScriptedSource([solid(1), None, boom, solid(2)], at_end="end")
    src.open()
    f1 = src.read(0.05)
    assert isinstance(f1, Frame) and f1.seq == 1 and f1.image[0, 0, 0] == 1
    t0 = time.monotonic()
    assert src.read(0.1) is None
    assert 0.09 <= time.monotonic() - t0 < 1.0
    with pytest.raises(SourceError, match="unplugged"):
        src.read(0.05)
    assert src.read(0.05).seq == 2
    with pytest.raises(EndOfStream):
        src.read(0.05)
    assert (src.opens, src.reads) == (1, 5)


def test_scripted_hang_ignores_the_timeout_but_close_wakes_it():
    import threading

    src = ScriptedSource([Hang(30)])
    src.open()
    threading.Timer(0.2, src.close).start()
    t0 = time.monotonic()
    assert src.read(0.01) is None
    assert 0.15 < time.monotonic() - t0 < 5


def test_scripted_source_rejects_a_non_bgr_image():
    src = ScriptedSource([np.zeros((4, 4), np.uint8)])
    src.open()
    with pytest.raises(SourceError, match="BGR uint8"):
        src.read()


def test_synthetic_source_paces_frames_and_passes_the_frame_time():
    seen: list[float] = []

    def render(t: float) -> np.ndarray:
        seen.append(t)
        return solid(len(seen) % 256)

    src = SyntheticSource(render, fps=20)
    src.open()
    t0 = time.monotonic()
    frames = [src.read(1.0) for _ in range(6)]
    elapsed = time.monotonic() - t0
    assert [f.seq for f in frames] == [1, 2, 3, 4, 5, 6]
    assert [f.t for f in frames] == seen
    assert 0.2 <= elapsed < 0.6  # 5 periods of 50 ms
    src.close()


def test_synthetic_render_errors_propagate():
    src = SyntheticSource(lambda t: 1 / 0, fps=50)
    src.open()
    with pytest.raises(ZeroDivisionError):
        src.read()


def test_image_folder_plays_in_name_order_and_loops(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"shot{i}.png"), solid(10 * i + 5))
    (tmp_path / "notes.txt").write_text("not an image")
    src = ImageFolderSource(tmp_path, fps=100, loop=True)
    src.open()
    values = [int(src.read().image[0, 0, 0]) for _ in range(4)]
    assert values == [5, 15, 25, 5]
    src.close()

    once = ImageFolderSource(tmp_path, fps=100, loop=False)
    once.open()
    for _ in range(3):
        assert once.read() is not None
    with pytest.raises(EndOfStream):
        once.read()


def test_image_folder_errors_name_the_problem(tmp_path):
    with pytest.raises(SourceError, match="no such folder"):
        ImageFolderSource(tmp_path / "missing").open()
    with pytest.raises(SourceError, match="no images"):
        ImageFolderSource(tmp_path).open()
    (tmp_path / "broken.png").write_bytes(b"not really a png")
    src = ImageFolderSource(tmp_path, fps=100)
    src.open()
    with pytest.raises(SourceError, match=r"broken\.png"):
        src.read()


@pytest.fixture
def video(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 50, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(solid(40 * i + 20))
    writer.release()
    return path


def test_video_file_plays_at_its_rate_and_loops(video):
    src = VideoCaptureSource(str(video), loop=True)
    src.open()
    t0 = time.monotonic()
    frames = [src.read(1.0) for _ in range(7)]
    elapsed = time.monotonic() - t0
    assert all(f is not None and f.image.shape == (48, 64, 3) for f in frames)
    levels = [round(f.image.mean() / 40) for f in frames]
    assert levels == [0, 1, 2, 3, 4, 0, 1]  # 20, 60, 100... then from the start again
    assert elapsed >= 0.1  # 6 periods at 50 fps
    src.close()
    src.close()


def test_video_file_without_loop_ends(video):
    src = VideoCaptureSource(video, loop=False, realtime=False)
    src.open()
    for _ in range(5):
        assert src.read() is not None
    with pytest.raises(EndOfStream):
        src.read()


def test_video_errors_say_what_to_check(tmp_path):
    with pytest.raises(SourceError, match="no such video file"):
        VideoCaptureSource(str(tmp_path / "missing.mp4")).open()
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00" * 100)
    with pytest.raises(SourceError, match="cannot decode"):
        VideoCaptureSource(str(junk)).open()
    with pytest.raises(SourceError, match="before open"):
        VideoCaptureSource(str(junk)).read()
