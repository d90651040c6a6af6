"""Vision: a frame in, an `Observation` out. OpenCV and NumPy only; knows geometry and artwork,
not rules. Stages: table calibration, colour normalisation, card detection, symbol reading,
lattice fitting, temporal filtering (see each module)."""
