# The C extension latmon.inputs._textparse (src/latmon/inputs/_textparse.c).
from typing_extensions import Buffer

def parse(
    buf: Buffer,
    delim: int,
    nfields: int,
    column: int,
    scale: int,
    out: object,
    non_negative: bool = ...,
) -> tuple[int, int, int, int]: ...
