"""What tests, benchmarks and demos use to stand in for a real model server: a loopback
OpenAI-compatible server with planned faults (``python -m indicifeval.testing.fake_server``).
The in-process stand-in is the ``mock`` backend (``runs/backends/mock.py``)."""
