"""Writing a file whole, for the scripts that save results (sprt_pool.py,
spsa.py): the text goes to a temporary file beside the target, is flushed to
the disk, and is renamed over the target; if anything fails on the way, the
temporary is removed and the target is as it was."""

import os
import tempfile


def write_whole(path: str, text: str) -> None:
    """`text` to `path`, never half-written, never leaving a temporary behind.

    Raises OSError (the target unwritable, a folder, its folder missing) or
    whatever producing the text raised; the old `path`, if any, is untouched."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".", suffix=".partial")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
