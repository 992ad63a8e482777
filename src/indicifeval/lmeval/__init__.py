"""lm-evaluation-harness integration in one place: the scoring hooks its tasks call, the task
folder writer, and the packaged task YAMLs (``tasks/``)."""
