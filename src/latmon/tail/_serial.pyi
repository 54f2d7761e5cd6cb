# The C extension latmon.tail._serial (src/latmon/tail/_serial.c).
# Every array argument is a C-contiguous buffer (numpy arrays: int64 x and runs, float64 the
# others; int64 all of moments'), typed as object as numpy's arrays are not typed as buffers.
def add(
    x: object,
    mean: float,
    median: float,
    sums: object,
    prev: object,
    kpss: object,
    runs: object,
) -> None: ...
def moments(x: object, offset: int, prev: object, state: object, window: object) -> None: ...
