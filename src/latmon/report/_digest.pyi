# The C extension latmon.report._digest (src/latmon/report/_digest.c).
# Every array argument is a C-contiguous int64 buffer (numpy arrays), typed as object as numpy's
# arrays are not typed as buffers.
def scan(
    x: object,
    cuts: object,
    low: object,
    low_at: object,
    high: object,
    high_at: object,
    floors: object,
    picked: object,
) -> tuple[int, int]: ...
