"""Where the large data sets are: the one lookup of the benchmark suites, the speed matrix and the
tests (their ``shared_data`` fixture).

The TU graph sets at full size (NCI1, ENZYMES, PTC_MR, ...) and the UCI sequence sets are too
large to ship; they live in one folder outside the repository. This module imports nothing but the
standard library: ``kernelkit bench matrix --baseline`` loads it from the current tree into a
process whose ``kernelkit`` is an older wheel.
"""

import os
import pathlib

ENVIRONMENT_VARIABLE = "KERNELKIT_SHARED_DATA"
# where this module was loaded from: in an editable install, inside the checkout
SOURCE = pathlib.Path(__file__).resolve()


def shared_data(name=None):
    """The folder of the large data sets, or None when it is not found.

    The first folder of: ``$KERNELKIT_SHARED_DATA``; ``shared/data`` in the working directory or
    one of its parents (``shared/data`` beside the checkout one runs from); ``shared/data`` in a
    parent of :data:`SOURCE` (beside the checkout of an editable install, from whatever working
    directory).

    Parameters
    ----------
    name : str or None, default=None
        A data set (``"NCI1"``, ``"uci_splice"``): the first folder that holds a folder of that
        name.

    Returns
    -------
    folder : pathlib.Path or None
    """
    env = os.environ.get(ENVIRONMENT_VARIABLE)
    cwd = pathlib.Path.cwd().resolve()
    candidates = [pathlib.Path(env)] if env else []
    candidates += [base / "shared" / "data" for base in (cwd, *cwd.parents, *SOURCE.parents)]
    return next((folder for folder in candidates
                 if (folder if name is None else folder / name).is_dir()), None)
