from collections.abc import Callable

def estimate(vectors: list[list[float]], n: int, words: bytes,
             stop: Callable[[list[float], int], bool] | None) -> list[float] | None: ...
